package io.trainyard.api;

import static io.trainyard.testing.TrainyardClient.refusal;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.trainyard.client.ApiException;
import io.trainyard.client.model.FieldError;
import io.trainyard.client.model.Problem;
import io.trainyard.testing.Eventually;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.ServerExtension;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/**
 * A backend plugged in as a module of its own (backends/threads-for-tests, on the tests' classpath only), which
 * touches no core, API or dashboard code: the server lists it, a job that names it runs there, and its state,
 * placement and logs are served as any job's. Its jobs are read as JSON: the generated client knows the
 * placements of the backends the contract was written with, and this one's is not among them.
 */
class PluggableBackendTest {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @RegisterExtension
    static final ServerExtension server = new ServerExtension("pluggable-node", "--trainyard.threads-for-tests.enabled=true");

    @Test
    void theServerListsTheBackendOfTheModuleBesideItsOwn() {
        JsonNode backends = server.api().raw().get("/backends").body();

        List<String> names = new ArrayList<>();
        backends.forEach(backend -> names.add(backend.get("name").asString()));
        assertThat(names).contains("local", "threads");
        JsonNode threads = backends.valueStream().filter(backend -> backend.get("name").asString().equals("threads"))
                .findFirst().orElseThrow();
        assertThat(threads.get("placement").asString()).isEqualTo("thread");
        assertThat(threads.get("resourceConfigs").valueStream().map(JsonNode::asString)).contains("localTrainerConfig");
    }

    @Test
    void aJobThatNamesTheBackendRunsThereAndShowsItsStatePlacementAndLogsAsAnyJob() {
        TrainyardClient api = server.api();
        UUID id = api.submit(JobBodies.job("on_a_thread", "pass").backend("threads")).getId();

        Eventually.await("the job succeeded", () -> "SUCCEEDED".equals(job(id).get("state").asString()), WAIT);
        JsonNode job = job(id);

        assertThat(job.get("backend").asString()).isEqualTo("threads");
        assertThat(job.get("placement").get("kind").asString()).isEqualTo("thread");
        assertThat(job.get("placement").get("thread").asString()).isEqualTo("job-" + id);
        assertThat(api.logTexts(id)).singleElement().asString().startsWith("rank 0 would run: ")
                .contains("--job_name=on_a_thread", "--task_config_uri=memory:/" + id + "/task_config.yaml");
    }

    @Test
    void withoutANameTheResourceConfigChoosesAndAnUnknownNameIsRefusedOnItsField() {
        TrainyardClient api = server.api();
        UUID id = api.submit(JobBodies.job("chosen_by_config", "pass")).getId();
        assertThat(api.job(id).getBackend()).isEqualTo("local");

        ApiException refused = refusal(() -> api.jobs().submitJob(JobBodies.job("nowhere", "pass").backend("nowhere"), null));

        assertThat(refused.getCode()).isEqualTo(422);
        Problem problem = TrainyardClient.problem(refused.getResponseBody());
        assertThat(problem.getErrors()).extracting(FieldError::getField).containsExactly("backend");
        assertThat(problem.getErrors()).extracting(FieldError::getMessage)
                .anyMatch(message -> message.contains("no backend 'nowhere'") && message.contains("threads"));
    }

    private static JsonNode job(UUID id) {
        return server.api().raw().get("/jobs/" + id).body();
    }
}

package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.trainyard.client.model.Job;
import io.trainyard.client.model.JobSubmission;
import io.trainyard.client.model.LaunchPlan;
import io.trainyard.testing.ServerExtension;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The heterogeneous link-prediction example (examples/heterogeneous-link-prediction/) as a user submits it: first
 * dry-run through the server's GiGL validation, then trained by the real runtime through a real server. Its
 * shape follows GiGL's DBLP example (examples/link_prediction/configs/e2e_het_dblp_sup_task_config.yaml in
 * Snapchat/GiGL: author, paper and term nodes, paper -> author supervision, a dict-form num_neighbors per edge
 * type, condensed type maps as GiGL's config populator writes them). Needs the runtime's virtual environment
 * (`bash runtime/install.sh`).
 */
class HeterogeneousExampleTest {

    private static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
    private static final Path RUNTIME_ENVIRONMENT = REPOSITORY.resolve("runtime/.venv/bin");

    @RegisterExtension
    static final ServerExtension server = new ServerExtension("runtime-hetero", "--trainyard.local.cpu-slots=1",
            "--trainyard.local.trainer-path=" + RUNTIME_ENVIRONMENT);

    @Test
    void theHeterogeneousLinkPredictionExampleRanksHeldOutAuthorsWell() throws Exception {
        assertThat(RUNTIME_ENVIRONMENT.resolve("python")).as("the runtime's virtualenv; run bash runtime/install.sh").exists();
        Path example = REPOSITORY.resolve("examples/heterogeneous-link-prediction");
        JobSubmission body = new JobSubmission().jobName("heterogeneous_link_prediction")
                .taskConfig(Files.readString(example.resolve("task_config.yaml")))
                .resourceConfig(Files.readString(example.resolve("resource_config.yaml")));
        TrainyardClient api = server.api();

        LaunchPlan plan = api.jobs().dryRunJob(body);
        assertThat(String.join(" ", plan.getWorkers().getFirst().getArgv())).contains("trainyard_runtime.train");

        UUID id = api.submit(body).getId();
        Job job = api.awaitEnded(id, Duration.ofMinutes(4));

        List<String> lines = api.logTexts(id);
        assertThat(job.getState()).as("job %s, log:%n%s", job, String.join("\n", lines)).isEqualTo(Job.StateEnum.SUCCEEDED);
        assertThat(lines).anyMatch(line -> line.contains("heterogeneous graph store") && line.contains("author, paper, term"));
        assertThat(lines).anyMatch(line -> line.contains("sampling_workers_per_process=4") && line.contains("no effect"));
        assertThat(EvalMetrics.read(job).get("mrr")).as("test MRR against 256 random authors").isGreaterThanOrEqualTo(0.5);
    }
}

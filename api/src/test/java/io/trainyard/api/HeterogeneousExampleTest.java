package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.trainyard.testing.ApiClient;
import io.trainyard.testing.ServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

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
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("jobName", "heterogeneous_link_prediction");
        body.put("taskConfig", Files.readString(example.resolve("task_config.yaml")));
        body.put("resourceConfig", Files.readString(example.resolve("resource_config.yaml")));
        ApiClient api = server.api();

        ApiClient.Response plan = api.post("/jobs/dry-run", body);
        assertThat(plan.status()).as("dry run: %s", plan.body()).isEqualTo(200);
        assertThat(plan.body().get("workers").get(0).get("argv").toString()).contains("trainyard_runtime.train");

        String id = api.submit(body).body().get("id").asString();
        JsonNode job = api.awaitEnded(id, Duration.ofMinutes(4));

        List<String> lines = new ArrayList<>();
        api.get("/jobs/" + id + "/logs?limit=10000").body().get("lines").forEach(line -> lines.add(line.get("text").asString()));
        assertThat(job.get("state").asString()).as("job %s, log:%n%s", job, String.join("\n", lines)).isEqualTo("SUCCEEDED");
        assertThat(lines).anyMatch(line -> line.contains("heterogeneous graph store") && line.contains("author, paper, term"));
        assertThat(lines).anyMatch(line -> line.contains("sampling_workers_per_process=4") && line.contains("no effect"));
        assertThat(EvalMetrics.read(job).get("mrr")).as("test MRR against 256 random authors").isGreaterThanOrEqualTo(0.5);
    }
}

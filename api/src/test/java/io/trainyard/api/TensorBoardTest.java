package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.trainyard.tensorboard.TensorBoards;
import io.trainyard.testing.ApiClient;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A job's TensorBoard behind the server: started on first use from the scalars the agent shipped (the server
 * writes its own event files, so the agent's disk need not be reachable), proxied under the job's URL with the
 * API's authentication, and stopped once idle. Needs the runtime's virtual environment, whose tensorboard it runs.
 */
class TensorBoardTest {

    private static final Path RUNTIME_ENVIRONMENT = Path.of("").toAbsolutePath().getParent().resolve("runtime/.venv/bin");

    @TempDir
    Path dataDir;

    @Test
    void servesAFinishedJobsScalarsThroughTheProxyAndStopsWhenIdle() {
        try (RunningServer server = RunningServer.start(TestDatabase.newDatabaseUrl(), dataDir, "tensorboard-node",
                "--trainyard.local.trainer-path=" + RUNTIME_ENVIRONMENT,
                "--trainyard.tensorboard.executable=" + RUNTIME_ENVIRONMENT.resolve("tensorboard"),
                "--trainyard.tensorboard.idle-timeout=4s")) {
            ApiClient api = server.api();
            String first = finishedJob(api, "curves_one", 10);
            String second = finishedJob(api, "curves_two", 5);
            JsonNode job = api.job(first);
            String link = job.get("links").get("tensorboard").asString();
            assertThat(link).isEqualTo("/jobs/" + first + "/tensorboard/");

            assertThat(api.withToken(null).get(link).status()).isEqualTo(401);
            ApiClient.Response page = api.get(link);
            assertThat(page.status()).isEqualTo(200);
            assertThat(page.raw().body()).contains("<html");
            String scalars = link + "data/plugin/scalars/scalars?run=curves_one/attempt-1&tag=loss";
            ApiClient.await("TensorBoard loaded the job's events", () -> api.get(scalars).status() == 200, Duration.ofSeconds(60));
            // TensorBoard's scalar data: [wall time, step, value] per point.
            JsonNode points = api.get(scalars).body();
            List<Long> steps = new ArrayList<>();
            points.forEach(point -> steps.add(point.get(1).asLong()));
            assertThat(steps).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
            assertThat(points.get(1).get(2).asDouble()).isEqualTo(0.5);

            ApiClient.Response compare = api.get("/tensorboard?jobs=" + second + "," + first);
            assertThat(compare.status()).isEqualTo(302);
            String compared = compare.header("Location");
            ApiClient.await("the comparing TensorBoard loaded both jobs", () -> {
                ApiClient.Response runs = api.get(compared + "data/runs");
                return runs.status() == 200 && runs.body().size() == 2;
            }, Duration.ofSeconds(60));
            assertThat(api.get(compared + "data/runs").body().toString())
                    .contains("curves_one_" + first.substring(0, 8) + "/attempt-1")
                    .contains("curves_two_" + second.substring(0, 8) + "/attempt-1");

            TensorBoards tensorBoards = server.bean(TensorBoards.class);
            assertThat(tensorBoards.runningPrefixes()).contains(compared.substring(0, compared.length() - 1));
            ApiClient.await("idle TensorBoards stopped", () -> tensorBoards.runningPrefixes().isEmpty(), Duration.ofSeconds(30));
        }
    }

    private static String finishedJob(ApiClient api, String name, int steps) {
        String program = """
                from torch.utils.tensorboard import SummaryWriter
                writer = SummaryWriter(log_dir="outputs/tensorboard")
                for step in range(%d):
                    writer.add_scalar("loss", 1.0 / (step + 1), step)
                writer.close()
                """.formatted(steps);
        Map<String, Object> body = JobBodies.job(name, program);
        body.put("taskConfig", ((String) body.get("taskConfig")).replace("    trainedModelUri: outputs/model.pt\n",
                "    trainedModelUri: outputs/model.pt\n    tensorboardLogsUri: outputs/tensorboard\n"));
        String id = api.submit(body).body().get("id").asString();
        assertThat(api.awaitEnded(id, Duration.ofMinutes(2)).get("state").asString()).isEqualTo("SUCCEEDED");
        return id;
    }
}

package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.trainyard.client.model.Job;
import io.trainyard.client.model.JobSubmission;
import io.trainyard.tensorboard.TensorBoards;
import io.trainyard.testing.Eventually;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RawHttpClient;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TestDatabase;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A job's TensorBoard behind the server: started on first use from the scalars the agent shipped (the server
 * writes its own event files, so the agent's disk need not be reachable), proxied under the job's URL with the
 * API's authentication, and stopped once idle. Needs the runtime's virtual environment, whose tensorboard it runs.
 * TensorBoard's pages and data are TensorBoard's, not the API's: they are read over raw HTTP.
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
            TrainyardClient api = server.api();
            UUID first = finishedJob(api, "curves_one", 10);
            UUID second = finishedJob(api, "curves_two", 5);
            String link = api.job(first).getLinks().get("tensorboard");
            assertThat(link).isEqualTo("/jobs/" + first + "/tensorboard/");

            RawHttpClient http = api.raw();
            assertThat(http.withToken(null).get(link).status()).isEqualTo(401);
            RawHttpClient.Response page = http.get(link);
            assertThat(page.status()).isEqualTo(200);
            assertThat(page.raw().body()).contains("<html");
            String scalars = link + "data/plugin/scalars/scalars?run=curves_one/attempt-1&tag=loss";
            Eventually.await("TensorBoard loaded the job's events", () -> http.get(scalars).status() == 200, Duration.ofSeconds(60));
            // TensorBoard's scalar data: [wall time, step, value] per point.
            JsonNode points = http.get(scalars).body();
            List<Long> steps = new ArrayList<>();
            points.forEach(point -> steps.add(point.get(1).asLong()));
            assertThat(steps).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
            assertThat(points.get(1).get(2).asDouble()).isEqualTo(0.5);

            // A redirect to the comparing TensorBoard: its Location is what matters, which the generated client hides.
            RawHttpClient.Response compare = http.get("/tensorboard?jobs=" + second + "," + first);
            assertThat(compare.status()).isEqualTo(302);
            String compared = compare.header("Location");
            Eventually.await("the comparing TensorBoard loaded both jobs", () -> {
                RawHttpClient.Response runs = http.get(compared + "data/runs");
                return runs.status() == 200 && runs.body().size() == 2;
            }, Duration.ofSeconds(60));
            assertThat(http.get(compared + "data/runs").body().toString())
                    .contains("curves_one_" + first.toString().substring(0, 8) + "/attempt-1")
                    .contains("curves_two_" + second.toString().substring(0, 8) + "/attempt-1");

            TensorBoards tensorBoards = server.bean(TensorBoards.class);
            assertThat(tensorBoards.runningPrefixes()).contains(compared.substring(0, compared.length() - 1));
            Eventually.await("idle TensorBoards stopped", () -> tensorBoards.runningPrefixes().isEmpty(), Duration.ofSeconds(30));
        }
    }

    private static UUID finishedJob(TrainyardClient api, String name, int steps) {
        String program = """
                from torch.utils.tensorboard import SummaryWriter
                writer = SummaryWriter(log_dir="outputs/tensorboard")
                for step in range(%d):
                    writer.add_scalar("loss", 1.0 / (step + 1), step)
                writer.close()
                """.formatted(steps);
        JobSubmission body = JobBodies.job(name, program);
        JobBodies.writingTensorBoard(body);
        UUID id = api.submit(body).getId();
        assertThat(api.awaitEnded(id, Duration.ofMinutes(2)).getState()).isEqualTo(Job.StateEnum.SUCCEEDED);
        return id;
    }
}

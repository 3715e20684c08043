package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import io.trainyard.testing.ApiClient;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.ServerExtension;
import io.trainyard.testing.ServerProcess;
import io.trainyard.testing.TestDatabase;
import io.trainyard.testing.TestJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * TensorBoard scalars of local jobs, from the event files their trainers write with PyTorch's SummaryWriter to
 * the metrics API: the agent follows the files and ships the points; the API lists tags and serves series.
 * Needs the runtime's virtual environment (`bash runtime/install.sh`): its python3 is the trainers' python3 here.
 */
class MetricsTest {

    private static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
    private static final Path RUNTIME_ENVIRONMENT = REPOSITORY.resolve("runtime/.venv/bin");
    private static final String TRAINER_PATH = "--trainyard.local.trainer-path=" + RUNTIME_ENVIRONMENT;

    @RegisterExtension
    static final ServerExtension server = new ServerExtension("metrics-node", TRAINER_PATH);

    @TempDir
    Path dataDir;

    @Test
    void aRuntimeJobsScalarsArriveThroughTheApiWithTheirSteps() throws Exception {
        assertThat(RUNTIME_ENVIRONMENT.resolve("python")).as("the runtime's virtualenv; run bash runtime/install.sh").exists();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("jobName", "node_classification_scalars");
        body.put("taskConfig", Files.readString(REPOSITORY.resolve("examples/node-classification/task_config.yaml")));
        body.put("resourceConfig", Files.readString(REPOSITORY.resolve("examples/node-classification/resource_config.yaml"))
                .replaceAll("numWorkers: \\d+", "numWorkers: 1"));
        ApiClient api = server.api();

        String id = api.submit(body).body().get("id").asString();
        JsonNode job = api.awaitEnded(id, Duration.ofMinutes(4));

        assertThat(job.get("state").asString()).as("log: %s", api.logTexts(id)).isEqualTo("SUCCEEDED");
        Map<String, JsonNode> tags = new LinkedHashMap<>();
        api.get("/jobs/" + id + "/metrics").body().forEach(tag -> tags.put(tag.get("tag").asString(), tag));
        assertThat(tags).containsKeys("train/loss", "train/learning_rate", "train/sampled_edges_per_second",
                "train/mini_batches_per_second", "test/accuracy");
        JsonNode loss = tags.get("train/loss");
        assertThat(loss.get("lastAttempt").asInt()).isEqualTo(1);
        assertThat(loss.get("lastStep").asLong()).isGreaterThan(loss.get("firstStep").asLong());
        assertThat(loss.get("min").asDouble()).isLessThanOrEqualTo(loss.get("lastValue").asDouble());

        JsonNode series = api.get("/jobs/" + id + "/metrics/series?tag=train/loss").body();
        List<Long> steps = steps(series);
        assertThat(series.get("attempt").asInt()).isEqualTo(1);
        assertThat(steps).hasSize((int) loss.get("points").asLong()).isSorted().doesNotHaveDuplicates();
        assertThat(steps.getLast()).isEqualTo(loss.get("lastStep").asLong());

        // The live follow replays the stored points of a finished job, then its end.
        List<ApiClient.SseEvent> events = api.follow("/jobs/" + id + "/metrics/stream", null, 10_000);
        assertThat(events.getLast().event()).isEqualTo("end");
        long streamedLossPoints = events.stream().filter(event -> event.event().equals("points"))
                .map(event -> ApiClient.JSON.readTree(event.data()))
                .filter(chunk -> chunk.get("tag").asString().equals("train/loss"))
                .mapToLong(chunk -> chunk.get("points").size()).sum();
        assertThat(streamedLossPoints).isEqualTo(loss.get("points").asLong());
    }

    @Test
    void aDamagedEventFileCostsOnlyItsDamagedRecord() {
        String program = """
                import glob, os, tempfile
                from torch.utils.tensorboard import SummaryWriter
                folder = tempfile.mkdtemp()
                writer = SummaryWriter(log_dir=folder)
                for step in range(20):
                    writer.add_scalar("loss", 1.0 / (step + 1), step)
                writer.close()
                data = bytearray(open(glob.glob(folder + "/events.out.tfevents.*")[0], "rb").read())
                data[len(data) // 2] ^= 0xFF
                os.makedirs("outputs/tensorboard", exist_ok=True)
                open("outputs/tensorboard/events.out.tfevents.damaged", "wb").write(bytes(data))
                """;
        ApiClient api = server.api();

        String id = api.submit(jobWritingScalars("damaged_events", program)).body().get("id").asString();
        JsonNode job = api.awaitEnded(id, Duration.ofMinutes(2));

        assertThat(job.get("state").asString()).as("log: %s", api.logTexts(id)).isEqualTo("SUCCEEDED");
        List<Long> steps = steps(api.get("/jobs/" + id + "/metrics/series?tag=loss").body());
        assertThat(steps).hasSize(19).isSorted();
        assertThat(api.logTexts(id)).anySatisfy(line -> assertThat(line)
                .startsWith("[trainyard] TensorBoard event file damaged: events.out.tfevents.damaged: skipped"));
    }

    @Test
    void aServerKilledMidJobNeitherLosesNorRepeatsAPoint() throws Exception {
        String database = TestDatabase.newDatabaseUrl();
        int count = 400;
        String program = """
                import time
                from torch.utils.tensorboard import SummaryWriter
                writer = SummaryWriter(log_dir="outputs/tensorboard")
                for step in range(%d):
                    writer.add_scalar("loss", 1.0 / (step + 1), step)
                    writer.add_scalar("accuracy", step / %d, step, new_style=True)
                    writer.flush()
                    time.sleep(0.02)
                writer.close()
                """.formatted(count, count);
        String id;
        try (ServerProcess first = ServerProcess.start(database, TestJvm.freePort(), dataDir, "metrics-killed",
                List.of(TRAINER_PATH))) {
            ApiClient api = first.api();
            id = api.submit(jobWritingScalars("outlives_its_server", program)).body().get("id").asString();
            ApiClient.await("the first points", () -> pointsOf(api, id, "loss") >= 20, Duration.ofSeconds(90));
            assertThat(pointsOf(api, id, "loss")).as("killed mid-job").isLessThan(count);
        }

        try (RunningServer restarted = RunningServer.start(database, dataDir, "metrics-killed", TRAINER_PATH)) {
            ApiClient api = restarted.api();
            JsonNode job = api.awaitEnded(id, Duration.ofMinutes(2));

            assertThat(job.get("state").asString()).isEqualTo("SUCCEEDED");
            List<Long> all = LongStream.range(0, count).boxed().toList();
            assertThat(steps(api.get("/jobs/" + id + "/metrics/series?tag=loss&maxPoints=100000").body())).isEqualTo(all);
            assertThat(steps(api.get("/jobs/" + id + "/metrics/series?tag=accuracy&maxPoints=100000").body())).isEqualTo(all);
        }
    }

    /** A job whose program runs with the working folder as its cwd and writes TensorBoard to outputs/tensorboard. */
    private static Map<String, Object> jobWritingScalars(String name, String program) {
        Map<String, Object> body = JobBodies.job(name, program);
        body.put("taskConfig", ((String) body.get("taskConfig")).replace("    trainedModelUri: outputs/model.pt\n",
                "    trainedModelUri: outputs/model.pt\n    tensorboardLogsUri: outputs/tensorboard\n"));
        return body;
    }

    private static long pointsOf(ApiClient api, String id, String tag) {
        for (JsonNode summary : api.get("/jobs/" + id + "/metrics").body()) {
            if (summary.get("tag").asString().equals(tag)) {
                return summary.get("points").asLong();
            }
        }
        return 0;
    }

    private static List<Long> steps(JsonNode series) {
        List<Long> steps = new ArrayList<>();
        series.get("points").forEach(point -> steps.add(point.get("step").asLong()));
        return steps;
    }
}

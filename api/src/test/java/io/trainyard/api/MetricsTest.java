package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import io.trainyard.client.ApiException;
import io.trainyard.client.model.Job;
import io.trainyard.client.model.JobSubmission;
import io.trainyard.client.model.MetricSeriesView;
import io.trainyard.client.model.MetricTagView;
import io.trainyard.client.model.ScalarPoint;
import io.trainyard.testing.Eventually;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RawHttpClient;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.ServerExtension;
import io.trainyard.testing.ServerProcess;
import io.trainyard.testing.TestDatabase;
import io.trainyard.testing.TestJvm;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

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
        JobSubmission body = new JobSubmission().jobName("node_classification_scalars")
                .taskConfig(Files.readString(REPOSITORY.resolve("examples/node-classification/task_config.yaml")))
                .resourceConfig(Files.readString(REPOSITORY.resolve("examples/node-classification/resource_config.yaml"))
                        .replaceAll("numWorkers: \\d+", "numWorkers: 1"));
        TrainyardClient api = server.api();

        UUID id = api.submit(body).getId();
        Job job = api.awaitEnded(id, Duration.ofMinutes(4));

        assertThat(job.getState()).as("log: %s", api.logTexts(id)).isEqualTo(Job.StateEnum.SUCCEEDED);
        Map<String, MetricTagView> tags = api.metrics().listJobMetrics(id).stream()
                .collect(Collectors.toMap(MetricTagView::getTag, Function.identity()));
        assertThat(tags).containsKeys("train/loss", "train/learning_rate", "train/sampled_edges_per_second",
                "train/mini_batches_per_second", "test/accuracy");
        MetricTagView loss = tags.get("train/loss");
        assertThat(loss.getLastAttempt()).isEqualTo(1);
        assertThat(loss.getLastStep()).isGreaterThan(loss.getFirstStep());
        assertThat(loss.getMin()).isLessThanOrEqualTo(loss.getLastValue());

        MetricSeriesView series = api.metrics().getJobMetricSeries(id, "train/loss", null, null, null);
        List<Long> steps = steps(series);
        assertThat(series.getAttempt()).isEqualTo(1);
        assertThat(steps).hasSize(loss.getPoints().intValue()).isSorted().doesNotHaveDuplicates();
        assertThat(steps.getLast()).isEqualTo(loss.getLastStep());

        // The live follow replays the stored points of a finished job, then its end (the SSE wire format: raw HTTP).
        List<RawHttpClient.SseEvent> events = api.raw().follow("/jobs/" + id + "/metrics/stream", null, 10_000);
        assertThat(events.getLast().event()).isEqualTo("end");
        long streamedLossPoints = events.stream().filter(event -> event.event().equals("points"))
                .map(event -> RawHttpClient.JSON.readTree(event.data()))
                .filter(chunk -> chunk.get("tag").asString().equals("train/loss"))
                .mapToLong(chunk -> chunk.get("points").size()).sum();
        assertThat(streamedLossPoints).isEqualTo(loss.getPoints());
    }

    @Test
    void aDamagedEventFileCostsOnlyItsDamagedRecord() throws ApiException {
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
        TrainyardClient api = server.api();

        UUID id = api.submit(jobWritingScalars("damaged_events", program)).getId();
        Job job = api.awaitEnded(id, Duration.ofMinutes(2));

        assertThat(job.getState()).as("log: %s", api.logTexts(id)).isEqualTo(Job.StateEnum.SUCCEEDED);
        List<Long> steps = steps(api.metrics().getJobMetricSeries(id, "loss", null, null, null));
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
        UUID id;
        try (ServerProcess first = ServerProcess.start(database, TestJvm.freePort(), dataDir, "metrics-killed",
                List.of(TRAINER_PATH))) {
            TrainyardClient api = first.api();
            UUID submitted = api.submit(jobWritingScalars("outlives_its_server", program)).getId();
            Eventually.await("the first points", () -> pointsOf(api, submitted, "loss") >= 20, Duration.ofSeconds(90));
            assertThat(pointsOf(api, submitted, "loss")).as("killed mid-job").isLessThan(count);
            id = submitted;
        }

        try (RunningServer restarted = RunningServer.start(database, dataDir, "metrics-killed", TRAINER_PATH)) {
            TrainyardClient api = restarted.api();
            Job job = api.awaitEnded(id, Duration.ofMinutes(2));

            assertThat(job.getState()).isEqualTo(Job.StateEnum.SUCCEEDED);
            List<Long> all = LongStream.range(0, count).boxed().toList();
            assertThat(steps(api.metrics().getJobMetricSeries(id, "loss", null, null, 100_000))).isEqualTo(all);
            assertThat(steps(api.metrics().getJobMetricSeries(id, "accuracy", null, null, 100_000))).isEqualTo(all);
        }
    }

    /** A job whose program runs with the working folder as its cwd and writes TensorBoard to outputs/tensorboard. */
    private static JobSubmission jobWritingScalars(String name, String program) {
        return JobBodies.writingTensorBoard(JobBodies.job(name, program));
    }

    private static long pointsOf(TrainyardClient api, UUID id, String tag) throws ApiException {
        return api.metrics().listJobMetrics(id).stream().filter(summary -> summary.getTag().equals(tag))
                .mapToLong(MetricTagView::getPoints).findFirst().orElse(0);
    }

    private static List<Long> steps(MetricSeriesView series) {
        return series.getPoints().stream().map(ScalarPoint::getStep).toList();
    }
}

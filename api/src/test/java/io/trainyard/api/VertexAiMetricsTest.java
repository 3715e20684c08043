package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import com.google.cloud.aiplatform.v1.CustomJob;
import com.google.cloud.aiplatform.v1.JobState;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import io.trainyard.testing.ApiClient;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TestDatabase;
import io.trainyard.testing.VertexAiFakes;
import io.trainyard.tfevents.EventFileWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A Vertex AI job's TensorBoard scalars, read by the server from the event files its trainer writes to the
 * job's gs:// tensorboardLogsUri while it runs (google-cloud-nio's in-memory Cloud Storage, the Vertex AI fake):
 * a file that grows is read on from its last complete record, and a record left cut short when the job ends is
 * skipped with a line in the job's log.
 */
class VertexAiMetricsTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dataDir;

    @Test
    void scalarsOfARunningJobArriveFromCloudStorage() throws Exception {
        try (VertexAiFakes fakes = new VertexAiFakes();
                RunningServer server = fakes.startServer(TestDatabase.newDatabaseUrl(), dataDir, "vertex-metrics",
                        "--trainyard.vertex-ai.poll-interval=100ms", "--trainyard.vertex-ai.max-poll-interval=200ms",
                        "--trainyard.vertex-ai.log-settle-time=100ms", "--trainyard.vertex-ai.requests-per-minute=100000",
                        "--trainyard.vertex-ai.log-reads-per-minute=100000")) {
            ApiClient api = server.api();
            String id = api.submit(VertexAiJobTest.job("vertex_scalars")).body().get("id").asString();
            CustomJob customJob = awaitCustomJob(fakes, id);
            String logs = api.job(id).get("outputs").get("tensorboardLogsUri").asString();
            assertThat(logs).isEqualTo("gs://test-perm/vertex_scalars/trainer/logs/");
            BlobId events = BlobId.of("test-perm", "vertex_scalars/trainer/logs/train/events.out.tfevents.1.host");

            fakes.vertex.setState(customJob.getName(), JobState.JOB_STATE_RUNNING, null);
            // Cloud Storage objects are replaced whole: a trainer's writer uploads the file again, longer, as it grows.
            byte[] tenSteps = eventFile(10);
            int firstFive = eventFile(5).length;
            fakes.storage.create(BlobInfo.newBuilder(events).build(), Arrays.copyOf(tenSteps, firstFive + 9));
            ApiClient.await("the first five points", () -> steps(api, id).size() == 5, WAIT);

            byte[] withCutRecord = Arrays.copyOf(tenSteps, tenSteps.length + 20);
            System.arraycopy(eventFile(11), tenSteps.length, withCutRecord, tenSteps.length, 20);
            fakes.storage.create(BlobInfo.newBuilder(events).build(), withCutRecord);
            ApiClient.await("ten points", () -> steps(api, id).size() == 10, WAIT);
            fakes.vertex.setState(customJob.getName(), JobState.JOB_STATE_SUCCEEDED, null);
            api.awaitEnded(id, WAIT);

            assertThat(steps(api, id)).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
            JsonNode tags = api.get("/jobs/" + id + "/metrics").body();
            assertThat(tags.get(0).get("tag").asString()).isEqualTo("train/loss");
            assertThat(tags.get(0).get("lastValue").asDouble()).isCloseTo(0.1, within(1e-6));
            assertThat(api.logTexts(id)).anySatisfy(line -> assertThat(line)
                    .contains("TensorBoard event file damaged: train/events.out.tfevents.1.host: skipped 20 bytes"));
        }
    }

    /** An event file with {@code steps} points of train/loss = 1 / (step + 1). */
    private static byte[] eventFile(int steps) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (EventFileWriter writer = new EventFileWriter(bytes, 1.7e9)) {
            for (int step = 0; step < steps; step++) {
                writer.scalar("train/loss", step, 1.7e9 + step, 1.0 / (step + 1));
            }
        }
        return bytes.toByteArray();
    }

    private static List<Long> steps(ApiClient api, String id) {
        List<Long> steps = new ArrayList<>();
        api.get("/jobs/" + id + "/metrics/series?tag=train/loss").body().get("points").forEach(point -> steps.add(point.get("step").asLong()));
        return steps;
    }

    private static CustomJob awaitCustomJob(VertexAiFakes fakes, String id) {
        ApiClient.await("the CustomJob of job " + id, () -> fakes.vertex.jobs().stream()
                .anyMatch(job -> id.equals(job.getLabelsMap().get("trainyard_job_id"))), WAIT);
        return fakes.vertex.jobs().stream().filter(job -> id.equals(job.getLabelsMap().get("trainyard_job_id"))).findFirst().orElseThrow();
    }
}

package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import com.google.cloud.aiplatform.v1.CustomJob;
import com.google.cloud.aiplatform.v1.CustomJobName;
import com.google.cloud.aiplatform.v1.JobState;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.protobuf.Timestamp;
import io.trainyard.client.ApiException;
import io.trainyard.client.model.MetricTagView;
import io.trainyard.client.model.ScalarPoint;
import io.trainyard.testing.Eventually;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TestDatabase;
import io.trainyard.testing.TrainyardClient;
import io.trainyard.testing.VertexAiFakes;
import io.trainyard.tfevents.EventFileWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Vertex AI job's TensorBoard scalars, read by the server from the event files its trainer writes to the
 * job's gs:// tensorboardLogsUri while it runs (google-cloud-nio's in-memory Cloud Storage, the Vertex AI fake):
 * a file that grows is read on from its last complete record, and a record left cut short when the job ends is
 * skipped with a line in the job's log. And what its machines were doing, from Cloud Monitoring (a gRPC fake).
 */
class VertexAiMetricsTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final double GIB = 1024.0 * 1024 * 1024;

    @TempDir
    Path dataDir;

    @Test
    void scalarsOfARunningJobArriveFromCloudStorage() throws Exception {
        try (VertexAiFakes fakes = new VertexAiFakes();
                RunningServer server = fakes.startServer(TestDatabase.newDatabaseUrl(), dataDir, "vertex-metrics",
                        "--trainyard.vertex-ai.poll-interval=100ms", "--trainyard.vertex-ai.max-poll-interval=200ms",
                        "--trainyard.vertex-ai.log-settle-time=100ms", "--trainyard.vertex-ai.requests-per-minute=100000",
                        "--trainyard.vertex-ai.log-reads-per-minute=100000")) {
            TrainyardClient api = server.api();
            UUID id = api.submit(VertexAiJobTest.job("vertex_scalars")).getId();
            CustomJob customJob = awaitCustomJob(fakes, id);
            String logs = api.job(id).getOutputs().get("tensorboardLogsUri");
            assertThat(logs).isEqualTo("gs://test-perm/vertex_scalars/trainer/logs/");
            BlobId events = BlobId.of("test-perm", "vertex_scalars/trainer/logs/train/events.out.tfevents.1.host");

            fakes.vertex.setState(customJob.getName(), JobState.JOB_STATE_RUNNING, null);
            // Cloud Storage objects are replaced whole: a trainer's writer uploads the file again, longer, as it grows.
            byte[] tenSteps = eventFile(10);
            int firstFive = eventFile(5).length;
            fakes.storage.create(BlobInfo.newBuilder(events).build(), Arrays.copyOf(tenSteps, firstFive + 9));
            Eventually.await("the first five points", () -> steps(api, id).size() == 5, WAIT);

            byte[] withCutRecord = Arrays.copyOf(tenSteps, tenSteps.length + 20);
            System.arraycopy(eventFile(11), tenSteps.length, withCutRecord, tenSteps.length, 20);
            fakes.storage.create(BlobInfo.newBuilder(events).build(), withCutRecord);
            Eventually.await("ten points", () -> steps(api, id).size() == 10, WAIT);
            fakes.vertex.setState(customJob.getName(), JobState.JOB_STATE_SUCCEEDED, null);
            api.awaitEnded(id, WAIT);

            assertThat(steps(api, id)).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
            List<MetricTagView> tags = api.metrics().listJobMetrics(id);
            assertThat(tags.getFirst().getTag()).isEqualTo("train/loss");
            assertThat(tags.getFirst().getLastValue()).isCloseTo(0.1, within(1e-6));
            assertThat(api.logTexts(id)).anySatisfy(line -> assertThat(line)
                    .contains("TensorBoard event file damaged: train/events.out.tfevents.1.host: skipped 20 bytes"));
        }
    }

    @Test
    void whatACustomJobUsedOfItsMachinesArrivesFromCloudMonitoring() throws Exception {
        try (VertexAiFakes fakes = new VertexAiFakes();
                RunningServer server = fakes.startServer(TestDatabase.newDatabaseUrl(), dataDir, "vertex-usage",
                        "--trainyard.vertex-ai.poll-interval=100ms", "--trainyard.vertex-ai.max-poll-interval=200ms",
                        "--trainyard.vertex-ai.log-settle-time=100ms", "--trainyard.vertex-ai.requests-per-minute=100000",
                        "--trainyard.vertex-ai.log-reads-per-minute=100000", "--trainyard.vertex-ai.monitoring-read-interval=100ms",
                        "--trainyard.vertex-ai.monitoring-settle-time=0s")) {
            TrainyardClient api = server.api();
            UUID id = api.submit(VertexAiJobTest.job("vertex_usage")).getId();
            CustomJob customJob = awaitCustomJob(fakes, id);
            String customJobId = CustomJobName.parse(customJob.getName()).getCustomJob();
            fakes.vertex.setState(customJob.getName(), JobState.JOB_STATE_RUNNING, null);
            Timestamp startTime = fakes.vertex.job(customJob.getName()).getStartTime();
            Instant started = Instant.ofEpochSecond(startTime.getSeconds(), startTime.getNanos());
            // Cloud Monitoring records a point a minute per replica (here a second apart, so that they are soon in the
            // past, where a read finds them): the leader's CPU and memory, the first worker's accelerators.
            for (int second = 1; second <= 3; second++) {
                Instant at = started.plusSeconds(second);
                fakes.monitoring.record("ml.googleapis.com/training/cpu/utilization", customJobId, "workerpool0-0", at, 0.42);
                fakes.monitoring.record("ml.googleapis.com/training/memory/bytes_used", customJobId, "workerpool0-0", at, 3.0 * GIB);
                fakes.monitoring.record("ml.googleapis.com/training/accelerator/utilization", customJobId, "workerpool1-0", at, 0.07);
                fakes.monitoring.record("ml.googleapis.com/training/accelerator/memory/bytes_used", customJobId, "workerpool1-0", at,
                        11.2 * GIB);
            }
            Eventually.await("three samples of each", () -> usage(api, id).size() == 4
                    && usage(api, id).values().stream().allMatch(series -> series.getPoints() == 3), WAIT);
            fakes.vertex.setState(customJob.getName(), JobState.JOB_STATE_SUCCEEDED, null);
            api.awaitEnded(id, WAIT);

            Map<String, MetricTagView> usage = usage(api, id);
            assertThat(usage.get("rank0/cpu_percent").getMean()).isCloseTo(42.0, within(1e-9));
            assertThat(usage.get("rank0/rss_bytes").getMax()).isEqualTo(3.0 * GIB);
            assertThat(usage.get("gpu1/utilization_percent").getMean()).as("rank 1's accelerators").isCloseTo(7.0, within(1e-9));
            assertThat(usage.get("gpu1/memory_used_bytes").getMax()).isEqualTo(11.2 * GIB);
            assertThat(api.systemMetrics().getJobSystemMetricSeries(id, "rank0/cpu_percent", null, null, null).getPoints())
                    .extracting(ScalarPoint::getStep).containsExactly(1_000L, 2_000L, 3_000L);
            assertThat(fakes.monitoring.listings).allSatisfy(listing -> assertThat(listing.getFilter())
                    .contains("resource.labels.job_id=\"" + customJobId + "\"").startsWith("metric.type=\"ml.googleapis.com/training/"));
        }
    }

    private static Map<String, MetricTagView> usage(TrainyardClient api, UUID id) throws ApiException {
        return api.systemMetrics().listJobSystemMetrics(id).stream().collect(Collectors.toMap(MetricTagView::getTag, tag -> tag));
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

    private static List<Long> steps(TrainyardClient api, UUID id) throws ApiException {
        return api.metrics().getJobMetricSeries(id, "train/loss", null, null, null).getPoints().stream()
                .map(ScalarPoint::getStep).toList();
    }

    private static CustomJob awaitCustomJob(VertexAiFakes fakes, UUID id) {
        String label = id.toString();
        Eventually.await("the CustomJob of job " + id, () -> fakes.vertex.jobs().stream()
                .anyMatch(job -> label.equals(job.getLabelsMap().get("trainyard_job_id"))), WAIT);
        return fakes.vertex.jobs().stream().filter(job -> label.equals(job.getLabelsMap().get("trainyard_job_id"))).findFirst()
                .orElseThrow();
    }
}

package io.trainyard.backend.vertexai;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import com.google.cloud.aiplatform.v1.CreateCustomJobRequest;
import com.google.cloud.aiplatform.v1.CustomJob;
import io.trainyard.job.Job;
import io.trainyard.job.JobSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class VertexJobsTest {

    private static final Duration WINDOW = Duration.ofMillis(400);
    private final FakeVertex vertex = new FakeVertex();

    VertexJobsTest() throws Exception {
    }

    @AfterEach
    void close() {
        vertex.close();
    }

    private static CreateCustomJobRequest request(UUID id) {
        JobSpec spec = CustomJobRequestTest.spec(CustomJobRequestTest.TASK, CustomJobRequestTest.resource("""
                vertexAiTrainerConfig:
                  machineType: n1-standard-4
                  gpuType: ACCELERATOR_TYPE_UNSPECIFIED
                  numReplicas: 1
                """), 3600);
        Job job = new Job(id, spec, "tester", null, null, Instant.EPOCH);
        return new CustomJobBuilder(CustomJobRequestTest.properties(null)).build(job, AssetFolder.of(job));
    }

    @Test
    void aServerThatCrashedAfterCreatingFindsTheJobInsteadOfCreatingASecond() throws Exception {
        UUID id = UUID.randomUUID();
        VertexJobs beforeCrash = new VertexJobs(region -> vertex.client, new QuotaLimiter(60, WINDOW), new QuotaLimiter(600, WINDOW));
        CustomJob created = beforeCrash.createOnce(request(id), id, 1);
        // The server died before recording the name; a new one (fresh limiters, no memory) launches again.
        VertexJobs afterRestart = new VertexJobs(region -> vertex.client, new QuotaLimiter(60, WINDOW), new QuotaLimiter(600, WINDOW));
        CustomJob again = afterRestart.createOnce(request(id), id, 1);

        assertThat(again.getName()).isEqualTo(created.getName());
        assertThat(vertex.creations).hasSize(1);
        // Another job and the next attempt of this one do get their own CustomJobs.
        UUID other = UUID.randomUUID();
        assertThat(afterRestart.createOnce(request(other), other, 1).getName()).isNotEqualTo(created.getName());
        assertThat(vertex.creations).hasSize(2);
    }

    @Test
    void twoHundredConcurrentSubmissionsStayInsideTheQuotas() throws Exception {
        int creationsPerWindow = 60;
        int requestsPerWindow = 150;
        VertexJobs jobs = new VertexJobs(region -> vertex.client, new QuotaLimiter(creationsPerWindow, WINDOW),
                new QuotaLimiter(requestsPerWindow, WINDOW));
        List<Future<CustomJob>> results = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 200; i++) {
                UUID id = UUID.randomUUID();
                results.add(pool.submit(() -> jobs.createOnce(request(id), id, 1)));
            }
        }
        for (Future<CustomJob> result : results) {
            assertThat(result.get().getName()).isNotEmpty();
        }
        assertThat(vertex.creations).hasSize(200);
        assertThat(maxInAnyWindow(vertex.creationNanos)).isLessThanOrEqualTo(creationsPerWindow);
        // Every creation also looked for an earlier CustomJob: 400 requests in all.
        assertThat(vertex.requestNanos).hasSize(400);
        assertThat(maxInAnyWindow(vertex.requestNanos)).isLessThanOrEqualTo(requestsPerWindow);
    }

    /** The most calls that arrived within any span shorter than the window. */
    private static int maxInAnyWindow(List<Long> nanos) {
        List<Long> sorted = new ArrayList<>(nanos);
        sorted.sort(null);
        int max = 0;
        int start = 0;
        for (int end = 0; end < sorted.size(); end++) {
            while (sorted.get(end) - sorted.get(start) >= WINDOW.toNanos()) {
                start++;
            }
            max = Math.max(max, end - start + 1);
        }
        return max;
    }
}

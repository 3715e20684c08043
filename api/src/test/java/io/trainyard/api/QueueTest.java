package io.trainyard.api;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.trainyard.client.ApiException;
import io.trainyard.client.model.Job;
import io.trainyard.testing.Eventually;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The queue as clients see it: queued jobs in dispatch order, each with its position and why it waits, in
 * {@code GET /queue}, {@code GET /jobs/{id}} and the job list; a job that runs has neither.
 */
class QueueTest {

    @TempDir
    static Path dataDir;
    static RunningServer server;
    static TrainyardClient api;

    @BeforeAll
    static void startServer() throws Exception {
        server = RunningServer.startWithThreeGpus(dataDir, "queue-node");
        api = server.api();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    private static UUID submit(String name, int gpus, int priority) {
        return api.submit(JobBodies.job(name, "import time\ntime.sleep(600)", gpus).priority(priority)).getId();
    }

    @Test
    void queuedJobsShowTheirPlaceInDispatchOrderAndWhyTheyWait() throws ApiException {
        UUID holder = submit("holds_two", 2, 0);
        api.awaitState(holder, Job.StateEnum.RUNNING, Duration.ofSeconds(60));
        UUID later = submit("needs_two_later", 2, 0);
        UUID urgent = submit("needs_two_urgent", 2, 10);

        Eventually.await("both jobs in the queue", () -> api.jobs().getQueue().size() == 2, Duration.ofSeconds(10));
        List<Job> queue = api.jobs().getQueue();

        assertThat(queue.get(0).getId()).isEqualTo(urgent);
        assertThat(queue.get(0).getQueuePosition()).isEqualTo(1);
        assertThat(queue.get(0).getWaitingReason())
                .isEqualTo("needs 2 GPU(s) on one host; the best host, queue-node, has 1 of 3 GPU(s) free");
        assertThat(queue.get(1).getId()).isEqualTo(later);
        assertThat(queue.get(1).getQueuePosition()).isEqualTo(2);
        assertThat(api.job(later).getQueuePosition()).isEqualTo(2);
        assertThat(api.jobs().listJobs(List.of("QUEUED"), null, null, null, null, null).getJobs().getFirst().getWaitingReason())
                .startsWith("needs 2 GPU(s)");
        assertThat(api.job(holder).getQueuePosition()).isNull();

        api.jobs().cancelJob(holder);
        api.awaitState(urgent, Job.StateEnum.RUNNING, Duration.ofSeconds(60));
        Eventually.await("the other job to move up", () -> api.job(later).getQueuePosition() == 1, Duration.ofSeconds(10));

        api.jobs().cancelJob(urgent);
        api.jobs().cancelJob(later);
    }
}

package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.trainyard.client.ApiException;
import io.trainyard.client.model.Job;
import io.trainyard.client.model.Membership;
import io.trainyard.client.model.NewProject;
import io.trainyard.testing.Eventually;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    /**
     * Bob's job waits behind Alice's starving job of a project Bob cannot see: he learns that it waits and where,
     * but not the other job's name. Alice's project sees it named.
     */
    @Test
    void aJobOfAnotherProjectIsNotNamedButKeepsItsPlace(@TempDir Path otherDataDir) throws Exception {
        try (RunningServer starving = RunningServer.startWithThreeGpus(otherDataDir, "starving-node",
                "--trainyard.starvation-threshold=1s")) {
            TrainyardClient admin = starving.api();
            admin.projects().createProject(new NewProject().name("alpha"));
            admin.projects().createProject(new NewProject().name("beta"));
            TrainyardClient alice = admin.newUser("alice", Map.of("alpha", Membership.RoleEnum.EDITOR));
            TrainyardClient bob = admin.newUser("bob", Map.of("beta", Membership.RoleEnum.EDITOR));
            String sleeps = "import time\ntime.sleep(600)";
            UUID holder = alice.submit(JobBodies.job("holds_two", sleeps, 2).project("alpha")).getId();
            alice.awaitState(holder, Job.StateEnum.RUNNING, Duration.ofSeconds(60));
            UUID big = alice.submit(JobBodies.job("alice_confidential_big", sleeps, 2).project("alpha")).getId();
            // Past the starvation threshold (1 s), nothing behind the big job is placed, though one GPU is free.
            Thread.sleep(1_500);
            UUID small = bob.submit(JobBodies.job("bob_small", sleeps, 1).project("beta")).getId();

            String hidden = "waiting behind a job of another project, queued the longest, until it fits";
            Job seenByBob = bob.awaitJob(small, job -> hidden.equals(job.getWaitingReason()), Duration.ofSeconds(10));
            assertThat(seenByBob.getQueuePosition()).isEqualTo(2);
            assertThat(bob.jobs().getQueue()).singleElement().satisfies(job -> {
                assertThat(job.getId()).isEqualTo(small);
                assertThat(job.getQueuePosition()).isEqualTo(2);
                assertThat(job.getWaitingReason()).isEqualTo(hidden);
            });
            assertThat(bob.jobs().listJobs(List.of("QUEUED"), null, null, null, null, null).getJobs())
                    .extracting(Job::getWaitingReason).containsExactly(hidden);
            assertThat(admin.job(small).getWaitingReason())
                    .isEqualTo("waiting behind alice_confidential_big, queued the longest, until it fits");

            for (UUID id : List.of(small, big, holder)) {
                admin.jobs().cancelJob(id);
            }
        }
    }
}

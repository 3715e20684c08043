package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.trainyard.client.ApiException;
import io.trainyard.client.model.Agent;
import io.trainyard.client.model.Job;
import io.trainyard.client.model.JobEvent;
import io.trainyard.client.model.JobSubmission;
import io.trainyard.client.model.RetryPolicy;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TestDatabase;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hosts hold leases: a silent one is declared lost, its jobs fail over; queued jobs age and cannot starve. */
class AgentLeaseTest {

    private static final String[] SHORT_LEASE = {"--trainyard.agent.heartbeat-interval=300ms", "--trainyard.agent.lease=3s"};

    @TempDir
    Path dataDir;

    @Test
    void aJobOfAHostThatStopsRenewingItsLeaseFailsOverToAnotherHost() throws ApiException {
        String database = TestDatabase.newDatabaseUrl();
        String program = "import os, time\nprint('attempt', os.environ['TRAINYARD_ATTEMPT'], flush=True)\ntime.sleep(2)\n";
        JobSubmission body = JobBodies.job("fails_over", program).retryPolicy(new RetryPolicy().maxAttempts(2).backoffSeconds(1));
        UUID id;
        String adminToken;
        try (RunningServer first = RunningServer.start(database, dataDir.resolve("a"), "node-a", SHORT_LEASE)) {
            adminToken = first.api().token();
            id = first.api().submit(body).getId();
            first.api().awaitState(id, Job.StateEnum.RUNNING, Duration.ofSeconds(30));
        }
        // node-a is gone without a word; node-b notices the expired lease.
        try (RunningServer second = RunningServer.start(database, dataDir.resolve("b"), "node-b", SHORT_LEASE)) {
            TrainyardClient api = second.api().withToken(adminToken);
            Job job = api.awaitEnded(id, Duration.ofSeconds(60));

            assertThat(job.getState()).isEqualTo(Job.StateEnum.SUCCEEDED);
            assertThat(job.getAttempt()).isEqualTo(2);
            assertThat(job.getNode()).isEqualTo("node-b");
            List<JobEvent> events = api.jobs().listJobEvents(id);
            JobEvent failed = events.stream().filter(event -> event.getTo() == JobEvent.ToEnum.FAILED).findFirst().orElseThrow();
            assertThat(failed.getCause()).isEqualTo(JobEvent.CauseEnum.INFRASTRUCTURE);
            assertThat(failed.getMessage()).contains("node-a");
            JobEvent requeued = events.get(events.indexOf(failed) + 1);
            JobEvent restarted = events.get(events.indexOf(failed) + 2);
            assertThat(requeued.getTo()).isEqualTo(JobEvent.ToEnum.QUEUED);
            assertThat(restarted.getTo()).isEqualTo(JobEvent.ToEnum.STARTING);
            assertThat(Duration.between(requeued.getAt(), restarted.getAt()))
                    .as("backoff before the second attempt").isGreaterThanOrEqualTo(Duration.ofSeconds(1));
            // The first attempt's line is there too when node-a's agent shipped it before the server stopped.
            assertThat(api.logTexts(id, 2)).containsExactly("attempt 2");
            assertThat(api.logTexts(id, 1)).isSubsetOf("attempt 1");

            List<Agent> agents = api.agents().listAgents();
            assertThat(agents).hasSize(2);
            assertThat(agents.get(0).getId()).isEqualTo("node-a");
            assertThat(agents.get(0).getState()).isEqualTo(Agent.StateEnum.LOST);
            assertThat(agents.get(1).getState()).isEqualTo(Agent.StateEnum.ACTIVE);
            assertThat(agents.get(1).getRunningJobs()).isEmpty();
        }
    }

    @Test
    void aStreamOfSmallJobsCannotStarveALargeOne() throws Exception {
        Path nvidiaSmi = dataDir.resolve("nvidia-smi");
        Files.writeString(nvidiaSmi, "#!/bin/sh\necho '0, NVIDIA L4, 23034'\necho '1, NVIDIA L4, 23034'\n");
        Files.setPosixFilePermissions(nvidiaSmi, PosixFilePermissions.fromString("rwxr-xr-x"));
        try (RunningServer server = RunningServer.start(TestDatabase.newDatabaseUrl(), dataDir, "two-gpus",
                "--trainyard.local.nvidia-smi=" + nvidiaSmi, "--trainyard.starvation-threshold=1s")) {
            TrainyardClient api = server.api();
            String small = "import time\ntime.sleep(0.7)\n";
            api.submit(JobBodies.job("small_first", small, 1));
            Thread.sleep(200);
            UUID large = api.submit(JobBodies.job("large", "print('both GPUs')", 2)).getId();
            // Keep one small job queued at all times for 6 s: without a guard, one GPU is always busy.
            long until = System.nanoTime() + Duration.ofSeconds(6).toNanos();
            while (System.nanoTime() < until) {
                api.submit(JobBodies.job("small", small, 1));
                Thread.sleep(300);
            }
            Instant streamEnded = Instant.now();

            Job job;
            try {
                job = api.awaitEnded(large, Duration.ofSeconds(30));
            } catch (AssertionError e) {
                StringBuilder states = new StringBuilder();
                api.jobs().listJobs(null, null, null, null, null, 100).getJobs().forEach(j -> states.append(j.getJobName())
                        .append('=').append(j.getState()).append(' '));
                throw new AssertionError(states + " agents: " + api.agents().listAgents(), e);
            }
            assertThat(job.getState()).isEqualTo(Job.StateEnum.SUCCEEDED);
            assertThat(job.getStartedAt().toInstant()).isBefore(streamEnded.minusSeconds(2));
        }
    }
}

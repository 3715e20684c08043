package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

import io.trainyard.client.model.Agent;
import io.trainyard.client.model.Job;
import io.trainyard.client.model.JobSubmission;
import io.trainyard.client.model.RetryPolicy;
import io.trainyard.testing.Eventually;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.ProcessTable;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.ServerProcess;
import io.trainyard.testing.TestDatabase;
import io.trainyard.testing.TestJvm;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Servers killed with SIGKILL mid-job: a restarted server finishes the job its trainer kept running; a host
 * that never comes back loses its lease and its job starts again elsewhere.
 */
class ServerKilledTest {

    private static final String[] SHORT_LEASE = {"--trainyard.agent.heartbeat-interval=500ms", "--trainyard.agent.lease=3s"};

    @TempDir
    Path dataDir;

    @Test
    void aJobSurvivesItsServerBeingKilledAndEndsWithItsCompleteLog() throws Exception {
        String database = TestDatabase.newDatabaseUrl();
        String program = "import time\nfor i in range(1, 41):\n    print('tick', i, flush=True)\n    time.sleep(0.1)\n";
        UUID id;
        try (ServerProcess server = ServerProcess.start(database, TestJvm.freePort(), dataDir, "killed-node", List.of())) {
            TrainyardClient first = server.api();
            id = first.submit(JobBodies.job("outlives_its_server", program)).getId();
            first.awaitState(id, Job.StateEnum.RUNNING, Duration.ofSeconds(30));
        }

        try (RunningServer restarted = RunningServer.start(database, dataDir, "killed-node")) {
            Job job = restarted.api().awaitEnded(id, Duration.ofSeconds(60));

            assertThat(job.getState()).isEqualTo(Job.StateEnum.SUCCEEDED);
            assertThat(job.getAttempt()).isEqualTo(1);
            List<String> lines = restarted.api().logTexts(id);
            List<String> expected = new ArrayList<>();
            for (int i = 1; i <= 40; i++) {
                expected.add("tick " + i);
            }
            assertThat(lines).containsExactlyElementsOf(expected);
        }
    }

    /**
     * Host a's server and its own agent die together, so no agent is left to kill the first attempt's trainer;
     * its supervisor does, at the agent's fence deadline, before the lease runs out and the job may start again.
     */
    @Test
    void theJobOfAHostKilledForGoodFailsOverToAnotherHostWithinTheLeaseAndItsTrainerIsGone() throws Exception {
        String database = TestDatabase.newDatabaseUrl();
        ServerProcess server = ServerProcess.start(database, TestJvm.freePort(), dataDir.resolve("a"), "host-a", List.of(SHORT_LEASE));
        TrainyardClient first = server.api();
        JobSubmission body = JobBodies.job("fails_over_after_kill", "import os, time\n"
                + "attempt = os.environ['TRAINYARD_ATTEMPT']\nprint('attempt', attempt, flush=True)\n"
                + "time.sleep(1 if attempt == '2' else 300)\n")
                .retryPolicy(new RetryPolicy().maxAttempts(2).backoffSeconds(0));
        UUID id;
        try (RunningServer second = RunningServer.start(database, dataDir.resolve("b"), "host-b",
                "--trainyard.dispatcher.enabled=false", SHORT_LEASE[0], SHORT_LEASE[1])) {
            id = first.submit(body).getId();
            first.awaitState(id, Job.StateEnum.RUNNING, Duration.ofSeconds(30));
            long staleTrainer = supervisorPid(dataDir.resolve("a"));
            long killedAt = System.nanoTime();
            server.kill();
            assertThat(ProcessTable.isRunning(staleTrainer)).isTrue();

            // Host a made the admin; its token works on every replica of the database.
            TrainyardClient observer = second.api().withToken(first.token());
            Job failed = observer.awaitJob(id, job -> job.getAttempt() == 2, Duration.ofSeconds(30));
            assertThat(Duration.ofNanos(System.nanoTime() - killedAt)).isLessThan(Duration.ofSeconds(3 + 2 + 5));
            assertThat(failed.getState()).isEqualTo(Job.StateEnum.QUEUED);
            // The fence deadline is a heartbeat interval (500 ms) before the lease's end; allow a loaded machine as much again.
            Eventually.await("the first attempt's trainer is gone", () -> !ProcessTable.isRunning(staleTrainer), Duration.ofMillis(500));
            Agent agent = observer.agents().listAgents().getFirst();
            assertThat(agent.getId()).isEqualTo("host-a");
            assertThat(agent.getState()).isEqualTo(Agent.StateEnum.LOST);
        } finally {
            server.kill();
        }
        // A host that runs jobs picks up the second attempt.
        try (RunningServer third = RunningServer.start(database, dataDir.resolve("c"), "host-c", SHORT_LEASE)) {
            TrainyardClient api = third.api().withToken(first.token());
            Job job = api.awaitEnded(id, Duration.ofSeconds(60));
            assertThat(job.getState()).isEqualTo(Job.StateEnum.SUCCEEDED);
            assertThat(job.getNode()).isEqualTo("host-c");
            // Every attempt's lines are kept: the first attempt's line is there too when host a's agent shipped it
            // before it died (as the server's own agent calling in-process now mostly does), and the second's is its own.
            assertThat(api.logTexts(id, 2)).containsExactly("attempt 2");
            assertThat(api.logTexts(id, 1)).isSubsetOf("attempt 1");
        }
    }

    /** The pid of the one trainer supervisor a host's data directory has: it leads the trainer's process group. */
    private static long supervisorPid(Path hostDataDir) {
        return Eventually.until("the trainer's supervisor writes its pid file", () -> {
            try (Stream<Path> pidFiles = Files.find(hostDataDir.resolve("jobs"), 4, (path, attributes) -> path.toString().endsWith(".pid"))) {
                Optional<Path> pidFile = pidFiles.findFirst();
                return pidFile.isPresent() ? Long.parseLong(Files.readString(pidFile.get()).strip()) : null;
            }
        }, Objects::nonNull, Duration.ofSeconds(10));
    }

}

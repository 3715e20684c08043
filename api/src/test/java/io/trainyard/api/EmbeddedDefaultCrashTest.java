package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

import io.trainyard.client.model.Job;
import io.trainyard.testing.AgentProcess;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.ServerProcess;
import io.trainyard.testing.TestJvm;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The single-node default (its own data directory, embedded PostgreSQL, embedded agent, default lease and
 * heartbeat) killed with SIGKILL, itself and its PostgreSQL at once as a kill of its process group does, at a
 * random moment while a job runs, then started again on the same data directory and port: the job's trainer
 * lives on however long the server was away (its fence waits while its owner, the server, is gone, and the
 * restarted server takes it over), the restarted agent re-attaches it, and the job succeeds in its first
 * attempt with every line once, in order. The same with a remote agent instead of the embedded one: it lives
 * on, and a refused connection is no reason to fence.
 */
class EmbeddedDefaultCrashTest {

    @TempDir
    Path dataDir;

    @Test
    void aJobSurvivesTheServersKillAndARestartAfterFiveSeconds() throws Exception {
        survivesKillAndRestartAfter(Duration.ofSeconds(5), 60, false);
    }

    @Test
    void aJobSurvivesTheServersKillAndARestartAfterThirtySeconds() throws Exception {
        // Longer than the job's lease (15 s) and than the time the job would take beside it: its trainer must
        // still be running when the server comes back, and be re-attached before the taken-over fence fires.
        survivesKillAndRestartAfter(Duration.ofSeconds(30), 160, false);
    }

    @Test
    void aJobOfARemoteAgentSurvivesTheServersKillAndARestartAfterFiveSeconds() throws Exception {
        survivesKillAndRestartAfter(Duration.ofSeconds(5), 60, true);
    }

    @Test
    void aJobOfARemoteAgentSurvivesTheServersKillAndARestartAfterThirtySeconds() throws Exception {
        survivesKillAndRestartAfter(Duration.ofSeconds(30), 160, true);
    }

    private void survivesKillAndRestartAfter(Duration away, int lines, boolean remoteAgent) throws Exception {
        String program = "import time\nfor i in range(1, " + (lines + 1) + "):\n    print('line', i, flush=True)\n"
                + "    time.sleep(0.5)\n";
        int port = TestJvm.freePort();
        List<String> arguments = remoteAgent ? AgentProcess.SERVER_ARGUMENTS : List.of();
        AgentProcess agent = null;
        UUID id;
        try (ServerProcess server = ServerProcess.start(null, port, dataDir, "crash-node", arguments)) {
            TrainyardClient api = server.api();
            if (remoteAgent) {
                agent = AgentProcess.start(api, "remote-agent", dataDir.resolve("remote-agent"), 0, "--cpu-slots=1");
            }
            id = api.submit(JobBodies.job("outlives_a_crash", program)).getId();
            api.awaitState(id, Job.StateEnum.RUNNING, Duration.ofSeconds(60));
            Thread.sleep(ThreadLocalRandom.current().nextLong(500, 6_000));
            long postmaster = Long.parseLong(Files.readAllLines(dataDir.resolve("postgres/postmaster.pid")).getFirst().strip());
            server.kill();
            ProcessHandle.of(postmaster).ifPresent(handle -> {
                handle.destroyForcibly();
                handle.onExit().join();
            });
        }
        Thread.sleep(away.toMillis());

        try (ServerProcess restarted = ServerProcess.start(null, port, dataDir, "crash-node", arguments)) {
            TrainyardClient api = restarted.api();
            Job job = api.awaitEnded(id, Duration.ofSeconds(lines / 2 + 60));

            assertThat(job.getState()).as(job.getFailureMessage()).isEqualTo(Job.StateEnum.SUCCEEDED);
            assertThat(job.getAttempt()).isEqualTo(1);
            List<String> expected = new ArrayList<>();
            for (int i = 1; i <= lines; i++) {
                expected.add("line " + i);
            }
            assertThat(api.logTexts(id)).containsExactlyElementsOf(expected);
        } finally {
            if (agent != null) {
                agent.close();
            }
        }
    }
}

package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.trainyard.client.model.Job;
import io.trainyard.client.model.JobEvent;
import io.trainyard.client.model.RetryPolicy;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TestDatabase;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Several servers on one database, and servers that stop while their jobs run. */
class SharedDatabaseTest {

    @TempDir
    Path dataDir;

    @Test
    void twoSchedulersOnOneDatabaseNeverStartTheSameJobTwice() throws Exception {
        String database = TestDatabase.newDatabaseUrl();
        Path ranFile = dataDir.resolve("ran.txt");
        String program = "import os\nwith open(%s, 'a') as f: f.write(os.environ['TRAINYARD_JOB_ID'] + '\\n')\n"
                .formatted("'" + ranFile + "'");
        // Unconfined trainers: each writes its job's id to one file of the test's, outside its work folder.
        try (RunningServer first = RunningServer.start(database, dataDir.resolve("a"), "node-a", "--trainyard.local.cpu-slots=3",
                        "--trainyard.local.trainer-isolation=none");
                RunningServer second = RunningServer.start(database, dataDir.resolve("b"), "node-b", "--trainyard.local.cpu-slots=3",
                        "--trainyard.local.trainer-isolation=none")) {
            List<UUID> ids = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                // The first replica made the admin; its token works on any replica of the database.
                TrainyardClient api = i % 2 == 0 ? first.api() : second.api().withToken(first.api().token());
                ids.add(api.submit(JobBodies.job("shared_" + i, program)).getId());
            }
            List<Job> ended = new ArrayList<>();
            for (UUID id : ids) {
                ended.add(first.api().awaitEnded(id, Duration.ofSeconds(120)));
            }

            assertThat(ended).allSatisfy(job -> assertThat(job.getState()).isEqualTo(Job.StateEnum.SUCCEEDED));
            Map<String, Long> runs = Files.readAllLines(ranFile).stream()
                    .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
            assertThat(runs.keySet()).containsExactlyInAnyOrderElementsOf(ids.stream().map(UUID::toString).toList());
            assertThat(runs.values()).allMatch(count -> count == 1);
            for (UUID id : ids) {
                assertThat(first.api().jobs().listJobEvents(id)).as("STARTING events of %s", id)
                        .filteredOn(event -> event.getTo() == JobEvent.ToEnum.STARTING).hasSize(1);
            }
            assertThat(ended.stream().map(Job::getNode).distinct()).containsExactlyInAnyOrder("node-a", "node-b");
        }
    }

    @Test
    void aRestartedServerReattachesToItsRunningJobAndKeepsEveryLogLine() {
        String database = TestDatabase.newDatabaseUrl();
        String program = "import time\nfor i in range(1, 41):\n    print('tick', i)\n    time.sleep(0.1)\n";
        UUID id;
        try (RunningServer server = RunningServer.start(database, dataDir, "restarting-node")) {
            id = server.api().submit(JobBodies.job("survivor", program)).getId();
            server.api().awaitState(id, Job.StateEnum.RUNNING, Duration.ofSeconds(30));
        }
        try (RunningServer restarted = RunningServer.start(database, dataDir, "restarting-node")) {
            Job job = restarted.api().awaitEnded(id, Duration.ofSeconds(60));

            assertThat(job.getState()).isEqualTo(Job.StateEnum.SUCCEEDED);
            List<String> lines = restarted.api().logTexts(id);
            List<String> expected = new ArrayList<>();
            for (int i = 1; i <= 40; i++) {
                expected.add("tick " + i);
            }
            assertThat(lines).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void aJobWhoseProcessVanishedWhileItsAgentWasDownFailsAsLostByTheInfrastructure() throws Exception {
        String database = TestDatabase.newDatabaseUrl();
        UUID id;
        long supervisor;
        try (RunningServer server = RunningServer.start(database, dataDir, "crashing-node")) {
            // One attempt: this test is about the failure itself, not the retry that would follow it by default.
            id = server.api().submit(JobBodies.job("vanishing", "import time\ntime.sleep(600)")
                    .retryPolicy(new RetryPolicy().maxAttempts(1))).getId();
            server.api().awaitState(id, Job.StateEnum.RUNNING, Duration.ofSeconds(30));
            Path pidFile = dataDir.resolve("jobs").resolve(id.toString()).resolve("attempts/1/rank-0.pid");
            for (int i = 0; i < 200 && !Files.exists(pidFile); i++) {
                Thread.sleep(50);
            }
            supervisor = Long.parseLong(Files.readString(pidFile).strip());
        }
        // Killed with SIGKILL while the server is away: no exit status is ever recorded.
        new ProcessBuilder("kill", "-s", "KILL", "--", "-" + supervisor).start().waitFor();
        ProcessHandle.of(supervisor).ifPresent(handle -> handle.onExit().join());

        try (RunningServer restarted = RunningServer.start(database, dataDir, "crashing-node")) {
            Job job = restarted.api().awaitEnded(id, Duration.ofSeconds(30));

            assertThat(job.getState()).isEqualTo(Job.StateEnum.FAILED);
            assertThat(job.getFailureCause()).isEqualTo(Job.FailureCauseEnum.INFRASTRUCTURE);
            assertThat(job.getFailureMessage()).contains("gone without a trace when agent crashing-node restarted");
        }
    }

    @Test
    void withoutADatabaseUrlTheServerRunsItsOwnPostgresAndKeepsJobsAcrossRestarts() {
        UUID id;
        try (RunningServer server = RunningServer.start(null, dataDir, "embedded-node")) {
            id = server.api().submit(JobBodies.job("embedded", "print('stored')")).getId();
            server.api().awaitEnded(id, Duration.ofSeconds(60));
        }
        assertThat(dataDir.resolve("postgres").resolve("PG_VERSION")).exists();
        try (RunningServer restarted = RunningServer.start(null, dataDir, "embedded-node")) {
            assertThat(restarted.api().job(id).getState()).isEqualTo(Job.StateEnum.SUCCEEDED);
            assertThat(restarted.api().logTexts(id)).containsExactly("stored");
        }
    }
}

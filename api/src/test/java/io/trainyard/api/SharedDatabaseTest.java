package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.trainyard.testing.ApiClient;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

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
        try (RunningServer first = RunningServer.start(database, dataDir.resolve("a"), "node-a", "--trainyard.local.cpu-slots=3");
                RunningServer second = RunningServer.start(database, dataDir.resolve("b"), "node-b", "--trainyard.local.cpu-slots=3")) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                // The first replica made the admin; its token works on any replica of the database.
                ApiClient api = i % 2 == 0 ? first.api() : second.api().withToken(first.api().token());
                ids.add(api.submit(JobBodies.job("shared_" + i, program)).body().get("id").asString());
            }
            List<JsonNode> ended = new ArrayList<>();
            for (String id : ids) {
                ended.add(first.api().awaitEnded(id, Duration.ofSeconds(120)));
            }

            assertThat(ended).allSatisfy(job -> assertThat(job.get("state").asString()).isEqualTo("SUCCEEDED"));
            Map<String, Long> runs = Files.readAllLines(ranFile).stream()
                    .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
            assertThat(runs.keySet()).containsExactlyInAnyOrderElementsOf(ids);
            assertThat(runs.values()).allMatch(count -> count == 1);
            for (String id : ids) {
                long starts = 0;
                for (JsonNode event : first.api().get("/jobs/" + id + "/events").body()) {
                    starts += event.get("to").asString().equals("STARTING") ? 1 : 0;
                }
                assertThat(starts).as("STARTING events of %s", id).isEqualTo(1);
            }
            assertThat(ended.stream().map(job -> job.get("node").asString()).distinct()).containsExactlyInAnyOrder("node-a", "node-b");
        }
    }

    @Test
    void aRestartedServerReattachesToItsRunningJobAndKeepsEveryLogLine() {
        String database = TestDatabase.newDatabaseUrl();
        String program = "import time\nfor i in range(1, 41):\n    print('tick', i)\n    time.sleep(0.1)\n";
        String id;
        try (RunningServer server = RunningServer.start(database, dataDir, "restarting-node")) {
            id = server.api().submit(JobBodies.job("survivor", program)).body().get("id").asString();
            server.api().awaitJob(id, job -> job.get("state").asString().equals("RUNNING"), Duration.ofSeconds(30));
        }
        try (RunningServer restarted = RunningServer.start(database, dataDir, "restarting-node")) {
            JsonNode job = restarted.api().awaitEnded(id, Duration.ofSeconds(60));

            assertThat(job.get("state").asString()).isEqualTo("SUCCEEDED");
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
        String id;
        long supervisor;
        try (RunningServer server = RunningServer.start(database, dataDir, "crashing-node")) {
            id = server.api().submit(JobBodies.job("vanishing", "import time\ntime.sleep(600)")).body().get("id").asString();
            server.api().awaitJob(id, job -> job.get("state").asString().equals("RUNNING"), Duration.ofSeconds(30));
            Path pidFile = dataDir.resolve("jobs").resolve(id).resolve("attempts/1/rank-0.pid");
            for (int i = 0; i < 200 && !Files.exists(pidFile); i++) {
                Thread.sleep(50);
            }
            supervisor = Long.parseLong(Files.readString(pidFile).strip());
        }
        // Killed with SIGKILL while the server is away: no exit status is ever recorded.
        new ProcessBuilder("kill", "-s", "KILL", "--", "-" + supervisor).start().waitFor();
        ProcessHandle.of(supervisor).ifPresent(handle -> handle.onExit().join());

        try (RunningServer restarted = RunningServer.start(database, dataDir, "crashing-node")) {
            JsonNode job = restarted.api().awaitEnded(id, Duration.ofSeconds(30));

            assertThat(job.get("state").asString()).isEqualTo("FAILED");
            assertThat(job.get("failureCause").asString()).isEqualTo("INFRASTRUCTURE");
            assertThat(job.get("failureMessage").asString()).contains("gone without a trace when agent crashing-node restarted");
        }
    }

    @Test
    void withoutADatabaseUrlTheServerRunsItsOwnPostgresAndKeepsJobsAcrossRestarts() {
        String id;
        try (RunningServer server = RunningServer.start(null, dataDir, "embedded-node")) {
            id = server.api().submit(JobBodies.job("embedded", "print('stored')")).body().get("id").asString();
            server.api().awaitEnded(id, Duration.ofSeconds(60));
        }
        assertThat(dataDir.resolve("postgres").resolve("PG_VERSION")).exists();
        try (RunningServer restarted = RunningServer.start(null, dataDir, "embedded-node")) {
            assertThat(restarted.api().job(id).get("state").asString()).isEqualTo("SUCCEEDED");
            assertThat(restarted.api().get("/jobs/" + id + "/logs").body().get("lines").get(0).get("text").asString()).isEqualTo("stored");
        }
    }
}

package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.trainyard.testing.ApiClient;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

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
        int port = freePort();
        Process server = startServerProcess(database, port, dataDir, "killed-node");
        ApiClient first = new ApiClient("http://127.0.0.1:" + port);
        String program = "import time\nfor i in range(1, 41):\n    print('tick', i, flush=True)\n    time.sleep(0.1)\n";
        String id;
        try {
            awaitHealthy(first, server);
            id = first.submit(JobBodies.job("outlives-its-server", program)).body().get("id").asString();
            first.awaitJob(id, job -> job.get("state").asString().equals("RUNNING"), Duration.ofSeconds(30));
        } finally {
            server.destroyForcibly().waitFor();
        }

        try (RunningServer restarted = RunningServer.start(database, dataDir, "killed-node")) {
            JsonNode job = restarted.api().awaitEnded(id, Duration.ofSeconds(60));

            assertThat(job.get("state").asString()).isEqualTo("SUCCEEDED");
            assertThat(job.get("attempt").asInt()).isEqualTo(1);
            List<String> lines = new ArrayList<>();
            restarted.api().get("/jobs/" + id + "/logs?limit=1000").body().get("lines")
                    .forEach(line -> lines.add(line.get("text").asString()));
            List<String> expected = new ArrayList<>();
            for (int i = 1; i <= 40; i++) {
                expected.add("tick " + i);
            }
            assertThat(lines).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void theJobOfAHostKilledForGoodFailsOverToAnotherHostWithinTheLease() throws Exception {
        String database = TestDatabase.newDatabaseUrl();
        int port = freePort();
        Process server = startServerProcess(database, port, dataDir.resolve("a"), "host-a", SHORT_LEASE);
        ApiClient first = new ApiClient("http://127.0.0.1:" + port);
        Map<String, Object> body = JobBodies.job("fails-over-after-kill",
                "import os, time\nprint('attempt', os.environ['TRAINYARD_ATTEMPT'], flush=True)\ntime.sleep(1)\n");
        body.put("retryPolicy", Map.of("maxAttempts", 2, "backoffSeconds", 0));
        String id;
        try (RunningServer second = RunningServer.start(database, dataDir.resolve("b"), "host-b",
                "--trainyard.dispatcher.enabled=false")) {
            awaitHealthy(first, server);
            id = first.submit(body).body().get("id").asString();
            first.awaitJob(id, job -> job.get("state").asString().equals("RUNNING"), Duration.ofSeconds(30));
            long killedAt = System.nanoTime();
            server.destroyForcibly().waitFor();

            JsonNode failed = second.api().awaitJob(id, job -> job.get("attempt").asInt() == 2, Duration.ofSeconds(30));
            assertThat(Duration.ofNanos(System.nanoTime() - killedAt)).isLessThan(Duration.ofSeconds(3 + 2 + 5));
            assertThat(failed.get("state").asString()).isEqualTo("QUEUED");
            JsonNode agents = second.api().get("/agents").body();
            assertThat(agents.get(0).get("id").asString()).isEqualTo("host-a");
            assertThat(agents.get(0).get("state").asString()).isEqualTo("LOST");
        } finally {
            server.destroyForcibly().waitFor();
        }
        // A host that runs jobs picks up the second attempt.
        try (RunningServer third = RunningServer.start(database, dataDir.resolve("c"), "host-c", SHORT_LEASE)) {
            JsonNode job = third.api().awaitEnded(id, Duration.ofSeconds(60));
            assertThat(job.get("state").asString()).isEqualTo("SUCCEEDED");
            assertThat(job.get("node").asString()).isEqualTo("host-c");
            assertThat(third.api().get("/jobs/" + id + "/logs").body().get("lines").get(0).get("text").asString())
                    .isEqualTo("attempt 2");
        }
    }

    /** The server as its own JVM, started from the test classpath, so that it can be killed with SIGKILL. */
    private static Process startServerProcess(String database, int port, Path dataDir, String nodeId, String... extra)
            throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                "io.trainyard.TrainyardServer", "--server.port=" + port, "--spring.datasource.url=" + database,
                "--trainyard.data-dir=" + dataDir, "--trainyard.node-id=" + nodeId, "--spring.main.banner-mode=off"));
        command.addAll(List.of(extra));
        java.nio.file.Files.createDirectories(dataDir);
        return new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dataDir.resolve(nodeId + "-server.log").toFile()).start();
    }

    private static void awaitHealthy(ApiClient api, Process server) throws InterruptedException {
        for (int i = 0; i < 600; i++) {
            if (!server.isAlive()) {
                throw new AssertionError("the server process exited with " + server.exitValue());
            }
            try {
                if (api.get("/actuator/health").status() == 200) {
                    return;
                }
            } catch (AssertionError notYet) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the server did not become healthy in 60 s");
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}

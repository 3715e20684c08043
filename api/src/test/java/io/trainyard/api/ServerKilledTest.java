package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.trainyard.testing.ApiClient;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** A server killed with SIGKILL mid-job: its trainer keeps running, and the restarted server finishes the job. */
class ServerKilledTest {

    @TempDir
    Path dataDir;

    @Test
    void aJobSurvivesItsServerBeingKilledAndEndsWithItsCompleteLog() throws Exception {
        String database = TestDatabase.newDatabaseUrl();
        int port = freePort();
        Process server = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                "io.trainyard.TrainyardServer", "--server.port=" + port, "--spring.datasource.url=" + database,
                "--trainyard.data-dir=" + dataDir, "--trainyard.node-id=killed-node", "--spring.main.banner-mode=off")
                .redirectErrorStream(true).redirectOutput(dataDir.resolve("killed-server.log").toFile()).start();
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

package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;

import io.trainyard.testing.ApiClient;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The queue as clients see it: queued jobs in dispatch order, each with its position and why it waits, in
 * {@code GET /queue}, {@code GET /jobs/{id}} and the job list; a job that runs has neither.
 */
class QueueTest {

    @TempDir
    static Path dataDir;
    static RunningServer server;
    static ApiClient api;

    @BeforeAll
    static void startServer() throws Exception {
        Path nvidiaSmi = dataDir.resolve("nvidia-smi");
        Files.writeString(nvidiaSmi, """
                #!/bin/sh
                echo "0, NVIDIA H100 80GB HBM3, 81559"
                echo "1, NVIDIA H100 80GB HBM3, 81559"
                echo "2, NVIDIA H100 80GB HBM3, 81559"
                """);
        Files.setPosixFilePermissions(nvidiaSmi, PosixFilePermissions.fromString("rwxr-xr-x"));
        server = RunningServer.start(TestDatabase.newDatabaseUrl(), dataDir, "queue-node", "--trainyard.local.nvidia-smi=" + nvidiaSmi);
        api = server.api();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    private static String submit(String name, int gpus, int priority) {
        Map<String, Object> body = new java.util.LinkedHashMap<>(JobBodies.job(name, "import time\ntime.sleep(600)", gpus));
        body.put("priority", priority);
        return api.submit(body).body().get("id").asString();
    }

    @Test
    void queuedJobsShowTheirPlaceInDispatchOrderAndWhyTheyWait() {
        String holder = submit("holds_two", 2, 0);
        api.awaitJob(holder, job -> job.get("state").asString().equals("RUNNING"), Duration.ofSeconds(60));
        String later = submit("needs_two_later", 2, 0);
        String urgent = submit("needs_two_urgent", 2, 10);

        ApiClient.await("both jobs in the queue", () -> api.get("/queue").body().size() == 2, Duration.ofSeconds(10));
        JsonNode queue = api.get("/queue").body();

        assertThat(queue.get(0).get("id").asString()).isEqualTo(urgent);
        assertThat(queue.get(0).get("queuePosition").asInt()).isEqualTo(1);
        assertThat(queue.get(0).get("waitingReason").asString())
                .isEqualTo("needs 2 GPU(s) on one host; the best host, queue-node, has 1 of 3 GPU(s) free");
        assertThat(queue.get(1).get("id").asString()).isEqualTo(later);
        assertThat(queue.get(1).get("queuePosition").asInt()).isEqualTo(2);
        assertThat(api.job(later).get("queuePosition").asInt()).isEqualTo(2);
        assertThat(api.get("/jobs?state=QUEUED").body().get("jobs").get(0).get("waitingReason").asString()).startsWith("needs 2 GPU(s)");
        assertThat(api.job(holder).get("queuePosition").isNull()).isTrue();

        api.post("/jobs/" + holder + "/cancel", Map.of());
        api.awaitJob(urgent, job -> job.get("state").asString().equals("RUNNING"), Duration.ofSeconds(60));
        ApiClient.await("the other job to move up", () -> api.job(later).get("queuePosition").asInt() == 1, Duration.ofSeconds(10));

        api.post("/jobs/" + urgent + "/cancel", Map.of());
        api.post("/jobs/" + later + "/cancel", Map.of());
    }
}

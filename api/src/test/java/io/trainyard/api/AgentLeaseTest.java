package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
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

/** Hosts hold leases: a silent one is declared lost, its jobs fail over; queued jobs age and cannot starve. */
class AgentLeaseTest {

    private static final String[] SHORT_LEASE = {"--trainyard.agent.heartbeat-interval=300ms", "--trainyard.agent.lease=3s"};

    @TempDir
    Path dataDir;

    @Test
    void aJobOfAHostThatStopsRenewingItsLeaseFailsOverToAnotherHost() {
        String database = TestDatabase.newDatabaseUrl();
        String program = "import os, time\nprint('attempt', os.environ['TRAINYARD_ATTEMPT'], flush=True)\ntime.sleep(2)\n";
        Map<String, Object> body = JobBodies.job("fails_over", program);
        body.put("retryPolicy", Map.of("maxAttempts", 2, "backoffSeconds", 1));
        String id;
        String adminToken;
        try (RunningServer first = RunningServer.start(database, dataDir.resolve("a"), "node-a", SHORT_LEASE)) {
            adminToken = first.api().token();
            id = first.api().submit(body).body().get("id").asString();
            first.api().awaitJob(id, job -> job.get("state").asString().equals("RUNNING"), Duration.ofSeconds(30));
        }
        // node-a is gone without a word; node-b notices the expired lease.
        try (RunningServer second = RunningServer.start(database, dataDir.resolve("b"), "node-b", SHORT_LEASE)) {
            ApiClient api = second.api().withToken(adminToken);
            JsonNode job = api.awaitEnded(id, Duration.ofSeconds(60));

            assertThat(job.get("state").asString()).isEqualTo("SUCCEEDED");
            assertThat(job.get("attempt").asInt()).isEqualTo(2);
            assertThat(job.get("node").asString()).isEqualTo("node-b");
            List<JsonNode> events = new ArrayList<>();
            api.get("/jobs/" + id + "/events").body().forEach(events::add);
            JsonNode failed = events.stream().filter(event -> event.get("to").asString().equals("FAILED")).findFirst().orElseThrow();
            assertThat(failed.get("cause").asString()).isEqualTo("INFRASTRUCTURE");
            assertThat(failed.get("message").asString()).contains("node-a");
            JsonNode requeued = events.get(events.indexOf(failed) + 1);
            JsonNode restarted = events.get(events.indexOf(failed) + 2);
            assertThat(requeued.get("to").asString()).isEqualTo("QUEUED");
            assertThat(restarted.get("to").asString()).isEqualTo("STARTING");
            assertThat(Duration.between(Instant.parse(requeued.get("at").asString()), Instant.parse(restarted.get("at").asString())))
                    .as("backoff before the second attempt").isGreaterThanOrEqualTo(Duration.ofSeconds(1));
            assertThat(api.get("/jobs/" + id + "/logs").body().get("lines").get(0).get("text").asString()).isEqualTo("attempt 2");

            JsonNode agents = api.get("/agents").body();
            assertThat(agents).hasSize(2);
            assertThat(agents.get(0).get("id").asString()).isEqualTo("node-a");
            assertThat(agents.get(0).get("state").asString()).isEqualTo("LOST");
            assertThat(agents.get(1).get("state").asString()).isEqualTo("ACTIVE");
            assertThat(agents.get(1).get("runningJobs")).isEmpty();
        }
    }

    @Test
    void aStreamOfSmallJobsCannotStarveALargeOne() throws Exception {
        Path nvidiaSmi = dataDir.resolve("nvidia-smi");
        Files.writeString(nvidiaSmi, "#!/bin/sh\necho '0, NVIDIA L4, 23034'\necho '1, NVIDIA L4, 23034'\n");
        Files.setPosixFilePermissions(nvidiaSmi, PosixFilePermissions.fromString("rwxr-xr-x"));
        try (RunningServer server = RunningServer.start(TestDatabase.newDatabaseUrl(), dataDir, "two-gpus",
                "--trainyard.local.nvidia-smi=" + nvidiaSmi, "--trainyard.starvation-threshold=1s")) {
            ApiClient api = server.api();
            String small = "import time\ntime.sleep(0.7)\n";
            api.submit(JobBodies.job("small_first", small, 1));
            Thread.sleep(200);
            String large = api.submit(JobBodies.job("large", "print('both GPUs')", 2)).body().get("id").asString();
            // Keep one small job queued at all times for 6 s: without a guard, one GPU is always busy.
            long until = System.nanoTime() + Duration.ofSeconds(6).toNanos();
            while (System.nanoTime() < until) {
                api.submit(JobBodies.job("small", small, 1));
                Thread.sleep(300);
            }
            Instant streamEnded = Instant.now();

            JsonNode job;
            try {
                job = api.awaitEnded(large, Duration.ofSeconds(30));
            } catch (AssertionError e) {
                StringBuilder states = new StringBuilder();
                api.get("/jobs?limit=100").body().get("jobs").forEach(j -> states.append(j.get("jobName").asString()).append('=')
                        .append(j.get("state").asString()).append(' '));
                throw new AssertionError(states + " agents: " + api.get("/agents").body(), e);
            }
            assertThat(job.get("state").asString()).isEqualTo("SUCCEEDED");
            assertThat(Instant.parse(job.get("startedAt").asString())).isBefore(streamEnded.minusSeconds(2));
        }
    }
}

package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import io.trainyard.testing.AgentProcess;
import io.trainyard.testing.ApiClient;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.ServerProcess;
import io.trainyard.testing.TestDatabase;
import io.trainyard.testing.TestJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A server with agents in JVMs of their own on loopback, with simulated GPU inventories: gang and best-fit
 * placement across hosts, and what happens when an agent or the server is killed with SIGKILL mid-job.
 */
class RemoteAgentsTest {

    @TempDir
    Path dataDir;

    @Test
    void jobsArePackedOntoTheHostThatFitsThemBestAndAJobNoHostCanHoldFailsAtOnce() throws Exception {
        try (RunningServer server = startServer("packing");
                AgentProcess big = AgentProcess.start(server.api(), "big", dataDir.resolve("big"), 4);
                AgentProcess small = AgentProcess.start(server.api(), "small", dataDir.resolve("small"), 2)) {
            ApiClient api = server.api();
            awaitActiveAgents(api, 2);

            String pair = api.submit(gpuJob("pair", 2, 3)).body().get("id").asString();
            JsonNode pairRunning = api.awaitJob(pair, job -> job.get("state").asString().equals("RUNNING"), Duration.ofSeconds(30));
            // Asked for by the explicit per-job field rather than numWorkers.
            Map<String, Object> quadBody = gpuJob("quad", 1, 8);
            quadBody.remove("requireGpus");
            quadBody.put("gpus", 4);
            String quad = api.submit(quadBody).body().get("id").asString();
            JsonNode quadRunning = api.awaitJob(quad, job -> job.get("state").asString().equals("RUNNING"), Duration.ofSeconds(30));
            String single = api.submit(gpuJob("single", 1, 0)).body().get("id").asString();
            String huge = api.submit(gpuJob("huge", 8, 0)).body().get("id").asString();

            // Best fit: the 2-GPU job takes the 2-GPU host whole, leaving the 4-GPU host for the 4-GPU job.
            assertThat(pairRunning.get("node").asString()).isEqualTo("small");
            assertThat(pairRunning.get("placement").get("gpus").toString()).isEqualTo("[0,1]");
            assertThat(quadRunning.get("node").asString()).isEqualTo("big");
            // Every GPU is taken: the 1-GPU job waits (no partial start) rather than failing.
            assertThat(api.job(single).get("state").asString()).isEqualTo("QUEUED");
            JsonNode never = api.awaitEnded(huge, Duration.ofSeconds(10));
            assertThat(never.get("failureCause").asString()).isEqualTo("NO_CAPACITY");
            assertThat(never.get("failureMessage").asString()).contains("largest host has 4");

            // The 2-GPU host frees up first, and the waiting job takes one of its GPUs.
            JsonNode singleDone = api.awaitEnded(single, Duration.ofSeconds(60));
            assertThat(singleDone.get("state").asString()).isEqualTo("SUCCEEDED");
            assertThat(singleDone.get("node").asString()).isEqualTo("small");
            assertThat(api.awaitEnded(pair, Duration.ofSeconds(30)).get("state").asString()).isEqualTo("SUCCEEDED");
            assertThat(api.logTexts(pair)).containsExactlyInAnyOrder("rank 0 of 2 sees GPUs 0,1", "rank 1 of 2 sees GPUs 0,1");
            assertThat(api.logTexts(quad)).contains("rank 3 of 4 sees GPUs 0,1,2,3");
            api.post("/jobs/" + quad + "/cancel", Map.of());
            assertThat(api.awaitEnded(quad, Duration.ofSeconds(30)).get("state").asString()).isEqualTo("CANCELLED");
        }
    }

    @Test
    void theJobOfAnAgentKilledWithSigkillFailsOverToAnotherAgentWithinTheLease() throws Exception {
        try (RunningServer server = startServer("failover", "--trainyard.agent.heartbeat-interval=500ms", "--trainyard.agent.lease=3s");
                AgentProcess first = AgentProcess.start(server.api(), "first", dataDir.resolve("first"), 0, "--cpu-slots=1");
                AgentProcess second = AgentProcess.start(server.api(), "second", dataDir.resolve("second"), 0, "--cpu-slots=1")) {
            ApiClient api = server.api();
            awaitActiveAgents(api, 2);
            Map<String, Object> body = JobBodies.job("fails_over",
                    "import os, time\nprint('attempt', os.environ['TRAINYARD_ATTEMPT'], flush=True)\ntime.sleep(2)\n");
            body.put("retryPolicy", Map.of("maxAttempts", 2, "backoffSeconds", 0));
            String id = api.submit(body).body().get("id").asString();
            JsonNode running = api.awaitJob(id, job -> job.get("state").asString().equals("RUNNING"), Duration.ofSeconds(30));
            String lostHost = running.get("node").asString();

            // The host dies: its agent and its trainer with it.
            (lostHost.equals("first") ? first : second).kill();
            killTrainer(dataDir.resolve(lostHost), id);
            long killedAt = System.nanoTime();

            api.awaitJob(id, job -> job.get("attempt").asInt() == 2, Duration.ofSeconds(30));
            assertThat(Duration.ofNanos(System.nanoTime() - killedAt)).isLessThan(Duration.ofSeconds(3 + 1 + 3));
            JsonNode done = api.awaitEnded(id, Duration.ofSeconds(60));
            assertThat(done.get("state").asString()).isEqualTo("SUCCEEDED");
            assertThat(done.get("node").asString()).isNotEqualTo(lostHost);
            assertThat(api.get("/jobs/" + id + "/events").body().findValuesAsString("cause")).contains("INFRASTRUCTURE");
            JsonNode lost = findAgent(api, lostHost);
            assertThat(lost.get("state").asString()).isEqualTo("LOST");
        }
    }

    @Test
    void anAgentRestartedAfterSigkillReattachesToItsTrainerAndTheLogIsComplete() throws Exception {
        try (RunningServer server = startServer("reattach")) {
            ApiClient api = server.api();
            Path agentDir = dataDir.resolve("phoenix");
            String id;
            try (AgentProcess agent = AgentProcess.start(api, "phoenix", agentDir, 0)) {
                awaitActiveAgents(api, 1);
                id = api.submit(JobBodies.job("outlives_its_agent", ticks(40))).body().get("id").asString();
                ApiClient.await("the first lines", () -> api.logTexts(id).size() >= 5, Duration.ofSeconds(30));
                agent.kill();
            }
            try (AgentProcess restarted = AgentProcess.start(api, "phoenix", agentDir, 0)) {
                JsonNode job = api.awaitEnded(id, Duration.ofSeconds(60));

                assertThat(job.get("state").asString()).isEqualTo("SUCCEEDED");
                assertThat(job.get("attempt").asInt()).isEqualTo(1);
                assertThat(api.logTexts(id)).containsExactlyElementsOf(expectedTicks(40));
                // A relative output path lands in the agent's work folder, not the server's.
                assertThat(job.get("outputs").get("trainedModelUri").asString())
                        .isEqualTo(agentDir.resolve("jobs").resolve(id).resolve("outputs/model.pt").toUri().toString());
            }
        }
    }

    @Test
    void aServerKilledWithSigkillDoesNotStopTheRunsOfItsAgents() throws Exception {
        String database = TestDatabase.newDatabaseUrl();
        int port = TestJvm.freePort();
        Path serverDir = dataDir.resolve("server");
        ServerProcess server = ServerProcess.start(database, port, serverDir, "server", AgentProcess.SERVER_ARGUMENTS);
        ApiClient api = server.api();
        try (AgentProcess agent = AgentProcess.start(api, "steady", dataDir.resolve("steady"), 0)) {
            awaitActiveAgents(api, 1);
            String id = api.submit(JobBodies.job("outlives_the_server", ticks(60))).body().get("id").asString();
            ApiClient.await("the first lines", () -> api.logTexts(id).size() >= 5, Duration.ofSeconds(30));

            server.kill();
            // The trainer goes on printing while nobody can store its lines.
            Thread.sleep(3_000);
            server = ServerProcess.start(database, port, serverDir, "server", AgentProcess.SERVER_ARGUMENTS);

            JsonNode job = api.awaitEnded(id, Duration.ofSeconds(60));
            assertThat(job.get("state").asString()).isEqualTo("SUCCEEDED");
            assertThat(job.get("attempt").asInt()).isEqualTo(1);
            assertThat(api.logTexts(id)).containsExactlyElementsOf(expectedTicks(60));
        } finally {
            server.kill();
        }
    }

    private RunningServer startServer(String nodeId, String... extra) {
        List<String> arguments = new ArrayList<>(AgentProcess.SERVER_ARGUMENTS);
        arguments.addAll(List.of(extra));
        return RunningServer.start(TestDatabase.newDatabaseUrl(), dataDir.resolve("server"), nodeId, arguments.toArray(String[]::new));
    }

    private static void awaitActiveAgents(ApiClient api, int count) {
        ApiClient.await(count + " active agent(s)", () -> api.get("/agents").body().findValuesAsString("state").stream()
                .filter("ACTIVE"::equals).count() == count, Duration.ofSeconds(30));
    }

    private static JsonNode findAgent(ApiClient api, String id) {
        for (JsonNode agent : api.get("/agents").body()) {
            if (agent.get("id").asString().equals(id)) {
                return agent;
            }
        }
        throw new AssertionError("no agent " + id);
    }

    private static Map<String, Object> gpuJob(String name, int gpus, int seconds) {
        Map<String, Object> body = JobBodies.job(name, "import os, time\nprint('rank', os.environ['RANK'], 'of', "
                + "os.environ['WORLD_SIZE'], 'sees GPUs', os.environ['CUDA_VISIBLE_DEVICES'], flush=True)\ntime.sleep(" + seconds + ")\n", gpus);
        body.put("requireGpus", true);
        return body;
    }

    private static String ticks(int count) {
        return "import time\nfor i in range(1, " + (count + 1) + "):\n    print('tick', i, flush=True)\n    time.sleep(0.1)\n";
    }

    private static List<String> expectedTicks(int count) {
        return IntStream.rangeClosed(1, count).mapToObj(i -> "tick " + i).toList();
    }

    /** The trainer's supervisor leads its process group: killing the group kills the trainer too. */
    private static void killTrainer(Path agentDir, String jobId) throws Exception {
        Path pidFile = agentDir.resolve("jobs").resolve(jobId).resolve("attempts/1/rank-0.pid");
        ApiClient.await("the supervisor's pid file", () -> Files.exists(pidFile), Duration.ofSeconds(10));
        long pid = Long.parseLong(Files.readString(pidFile).strip());
        new ProcessBuilder("kill", "-s", "KILL", "--", "-" + pid).start().waitFor();
    }
}

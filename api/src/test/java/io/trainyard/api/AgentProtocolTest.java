package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.trainyard.testing.AgentProcess;
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
 * The agent protocol spoken by hand, as a misbehaving or unlucky agent would: a wrong token or another agent's,
 * a resent log batch, reports from a replaced agent process (an older epoch).
 */
class AgentProtocolTest {

    private static final Map<String, ApiClient> AGENTS = new HashMap<>();

    @TempDir
    static Path dataDir;
    static RunningServer server;
    static ApiClient api;

    @BeforeAll
    static void start() {
        server = RunningServer.start(TestDatabase.newDatabaseUrl(), dataDir, "protocol-node",
                AgentProcess.SERVER_ARGUMENTS.toArray(String[]::new));
        api = server.api();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void anAgentWithoutItsOwnTokenCannotRegisterOrReport() {
        ApiClient.Response wrong = api.withToken("tya_guessed").put("/agents/intruder", registration(1));
        ApiClient.Response missing = api.withToken(null).put("/agents/intruder", registration(1));
        ApiClient.Response anotherAgents = agent("by-hand").put("/agents/intruder", registration(1));
        ApiClient.Response aUsers = api.put("/agents/intruder", registration(1));

        assertThat(wrong.status()).isEqualTo(401);
        assertThat(wrong.body().get("title").asString()).isEqualTo("Authentication required");
        assertThat(missing.status()).isEqualTo(401);
        assertThat(anotherAgents.status()).isEqualTo(403);
        assertThat(aUsers.status()).isEqualTo(403);
        assertThat(api.get("/agents").body().findValuesAsString("id")).doesNotContain("intruder");
    }

    @Test
    void anAgentTokenCannotUseTheUserApi() {
        ApiClient agent = agent("by-hand");

        assertThat(agent.get("/jobs").status()).isEqualTo(403);
        assertThat(agent.get("/agents").status()).isEqualTo(403);
        assertThat(agent.post("/jobs", JobBodies.job("from-an-agent", "pass")).status()).isEqualTo(403);
    }

    @Test
    void anInvalidRegistrationNamesTheFields() {
        ApiClient.Response response = agent("bad").put("/agents/bad", Map.of("host", "", "gpus", List.of(), "cpuSlots", 0));

        assertThat(response.status()).isEqualTo(422);
        assertThat(response.body().get("errors").findValuesAsString("field")).containsExactlyInAnyOrder("host", "cpuSlots");
    }

    @Test
    void aResentLogBatchIsStoredOnceAndAReplacedAgentProcessChangesNothing() {
        long epoch = agent("by-hand").put("/agents/by-hand", registration(1)).body().get("epoch").asLong();
        String id = api.submit(JobBodies.job("by_hand", "print('never run')")).body().get("id").asString();
        JsonNode work = heartbeat("by-hand", epoch);
        assertThat(work.get("assignments").get(0).get("jobId").asString()).isEqualTo(id);
        String run = "/agents/by-hand/runs/" + id + "/1";

        assertThat(post(run + "/started", Map.of("epoch", epoch, "runState", "{\"workers\":[]}")).status()).isEqualTo(200);
        assertThat(post(run + "/logs", batch(epoch, 1, "first")).status()).isEqualTo(200);
        // The acknowledgement was lost: the agent sends batch 1 again, then goes on.
        assertThat(post(run + "/logs", batch(epoch, 1, "first")).status()).isEqualTo(200);
        assertThat(post(run + "/logs", batch(epoch, 2, "second")).status()).isEqualTo(200);
        assertThat(api.logTexts(id)).containsExactly("first", "second");
        Instant stampedAt = Instant.parse(api.get("/jobs/" + id + "/logs").body().get("lines").get(0).get("time").asString());
        assertThat(Duration.between(stampedAt, Instant.now()).abs()).isLessThan(Duration.ofMinutes(1));

        // The agent restarts: the new process learns where shipping resumes.
        JsonNode registered = agent("by-hand").put("/agents/by-hand", registration(1)).body();
        long newEpoch = registered.get("epoch").asLong();
        assertThat(newEpoch).isGreaterThan(epoch);
        JsonNode known = registered.get("runs").get(0);
        assertThat(known.get("jobId").asString()).isEqualTo(id);
        assertThat(known.get("lastBatch").asLong()).isEqualTo(2);
        assertThat(known.get("readPositions").get("rank-0.stdout").asLong()).isEqualTo(14);

        // The old process is still around: everything it says is refused and nothing changes.
        assertThat(post(run + "/logs", batch(epoch, 3, "stale")).status()).isEqualTo(409);
        assertThat(post(run + "/ended", ended(epoch, "EXITED_WITH_ERROR")).status()).isEqualTo(409);
        assertThat(post("/agents/by-hand/heartbeat", Map.of("epoch", epoch, "running", List.of(), "cancelling", List.of())).status())
                .isEqualTo(409);
        assertThat(api.job(id).get("state").asString()).isEqualTo("RUNNING");

        assertThat(post(run + "/ended", ended(newEpoch, "SUCCEEDED")).status()).isEqualTo(204);
        assertThat(api.job(id).get("state").asString()).isEqualTo("SUCCEEDED");
        assertThat(api.logTexts(id)).containsExactly("first", "second");
        // A report about an attempt that is over is refused too.
        assertThat(post(run + "/ended", ended(newEpoch, "EXITED_WITH_ERROR")).status()).isEqualTo(409);
    }

    @Test
    void aJobCancelledBeforeItsAgentStartedItIsCancelledWithoutRunning() {
        // The only agent with a GPU, so the job can go nowhere else.
        long epoch = agent("slow-starter").put("/agents/slow-starter", Map.of("host", "test-host",
                "gpus", List.of(Map.of("index", 0, "model", "Simulated GPU", "memoryMiB", 1024)), "cpuSlots", 1))
                .body().get("epoch").asLong();
        Map<String, Object> body = JobBodies.job("cancelled_early", "print('never run')");
        body.put("requireGpus", true);
        String id = api.submit(body).body().get("id").asString();
        api.awaitJob(id, job -> job.get("node").asString("").equals("slow-starter"), Duration.ofSeconds(10));
        api.post("/jobs/" + id + "/cancel", Map.of());

        JsonNode work = heartbeat("slow-starter", epoch);

        assertThat(work.get("assignments")).isEmpty();
        assertThat(work.get("cancels").get(0).get("jobId").asString()).isEqualTo(id);
        ApiClient.Response ended = post("/agents/slow-starter/runs/" + id + "/1/ended",
                Map.of("epoch", epoch, "end", Map.of("result", "CANCELLED", "message", "cancelled before it started")));
        assertThat(ended.status()).isEqualTo(204);
        assertThat(api.job(id).get("state").asString()).isEqualTo("CANCELLED");
    }

    private static JsonNode heartbeat(String agentId, long epoch) {
        ApiClient.Response response = post("/agents/" + agentId + "/heartbeat?waitMillis=2000",
                Map.of("epoch", epoch, "running", List.of(), "cancelling", List.of()));
        assertThat(response.status()).isEqualTo(200);
        return response.body();
    }

    private static Map<String, Object> registration(int cpuSlots) {
        return Map.of("host", "test-host", "gpus", List.of(), "cpuSlots", cpuSlots);
    }

    private static Map<String, Object> batch(long epoch, long number, String text) {
        return Map.of("epoch", epoch, "batch", number,
                "lines", List.of(Map.of("timeMicros", Instant.now().toEpochMilli() * 1000, "stream", "stdout", "rank", 0, "text", text)),
                "positions", Map.of("rank-0.stdout", 7L * number));
    }

    private static Map<String, Object> ended(long epoch, String result) {
        return Map.of("epoch", epoch, "end", Map.of("result", result, "exitCode", 0, "message", "by hand"));
    }

    /** Posts as the agent the path names ({@code /agents/<id>/…}), with its own token. */
    private static ApiClient.Response post(String path, Object body) {
        return agent(path.split("/")[2]).post(path, body);
    }

    /** The agent of this id, with a token of its own made by the admin. */
    private static ApiClient agent(String agentId) {
        return AGENTS.computeIfAbsent(agentId, id -> api.withToken(AgentProcess.tokenFor(api, id)));
    }
}

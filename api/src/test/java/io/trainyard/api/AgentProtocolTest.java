package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.trainyard.client.ApiException;
import io.trainyard.client.model.Agent;
import io.trainyard.client.model.Job;
import io.trainyard.testing.AgentProcess;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RawHttpClient;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TestDatabase;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The agent protocol spoken by hand, as a misbehaving or unlucky agent would: a wrong token or another agent's,
 * a resent log batch, reports from a replaced agent process (an older epoch). The protocol is not in the public
 * contract, so agents speak raw HTTP; what a user sees of it comes through the generated client.
 */
class AgentProtocolTest {

    private static final Map<String, RawHttpClient> AGENTS = new HashMap<>();

    @TempDir
    static Path dataDir;
    static RunningServer server;
    static TrainyardClient api;

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
    void anAgentWithoutItsOwnTokenCannotRegisterOrReport() throws ApiException {
        RawHttpClient.Response wrong = api.raw().withToken("tya_guessed").put("/agents/intruder", registration(1));
        RawHttpClient.Response missing = api.raw().withToken(null).put("/agents/intruder", registration(1));
        RawHttpClient.Response anotherAgents = agent("by-hand").put("/agents/intruder", registration(1));
        RawHttpClient.Response aUsers = api.raw().put("/agents/intruder", registration(1));

        assertThat(wrong.status()).isEqualTo(401);
        assertThat(wrong.body().get("title").asString()).isEqualTo("Authentication required");
        assertThat(missing.status()).isEqualTo(401);
        assertThat(anotherAgents.status()).isEqualTo(403);
        assertThat(aUsers.status()).isEqualTo(403);
        assertThat(api.agents().listAgents()).extracting(Agent::getId).doesNotContain("intruder");
    }

    @Test
    void anAgentTokenCannotUseTheUserApi() {
        RawHttpClient agent = agent("by-hand");

        assertThat(agent.get("/jobs").status()).isEqualTo(403);
        assertThat(agent.get("/agents").status()).isEqualTo(403);
        assertThat(agent.post("/jobs", JobBodies.asJson(JobBodies.job("from-an-agent", "pass"))).status()).isEqualTo(403);
    }

    @Test
    void anInvalidRegistrationNamesTheFields() {
        RawHttpClient.Response response = agent("bad").put("/agents/bad", Map.of("host", "", "gpus", List.of(), "cpuSlots", 0));

        assertThat(response.status()).isEqualTo(422);
        assertThat(response.body().get("errors").findValuesAsString("field")).containsExactlyInAnyOrder("host", "cpuSlots");
    }

    @Test
    void aResentLogBatchIsStoredOnceAndAReplacedAgentProcessChangesNothing() throws ApiException {
        long epoch = agent("by-hand").put("/agents/by-hand", registration(1)).body().get("epoch").asLong();
        UUID id = api.submit(JobBodies.job("by_hand", "print('never run')")).getId();
        JsonNode work = heartbeat("by-hand", epoch);
        assertThat(work.get("assignments").get(0).get("jobId").asString()).isEqualTo(id.toString());
        String run = "/agents/by-hand/runs/" + id + "/1";

        assertThat(post(run + "/started", Map.of("epoch", epoch, "runState", "{\"workers\":[]}")).status()).isEqualTo(200);
        assertThat(post(run + "/logs", batch(epoch, 1, "first")).status()).isEqualTo(200);
        // The acknowledgement was lost: the agent sends batch 1 again, then goes on.
        assertThat(post(run + "/logs", batch(epoch, 1, "first")).status()).isEqualTo(200);
        assertThat(post(run + "/logs", batch(epoch, 2, "second")).status()).isEqualTo(200);
        assertThat(api.logTexts(id)).containsExactly("first", "second");
        Instant stampedAt = api.logs().getJobLogs(id, null, null).getLines().getFirst().getTime().toInstant();
        assertThat(Duration.between(stampedAt, Instant.now()).abs()).isLessThan(Duration.ofMinutes(1));

        // The agent restarts: the new process learns where shipping resumes.
        JsonNode registered = agent("by-hand").put("/agents/by-hand", registration(1)).body();
        long newEpoch = registered.get("epoch").asLong();
        assertThat(newEpoch).isGreaterThan(epoch);
        JsonNode known = registered.get("runs").get(0);
        assertThat(known.get("jobId").asString()).isEqualTo(id.toString());
        assertThat(known.get("lastBatch").asLong()).isEqualTo(2);
        assertThat(known.get("readPositions").get("rank-0.stdout").asLong()).isEqualTo(14);

        // The old process is still around: everything it says is refused and nothing changes.
        assertThat(post(run + "/logs", batch(epoch, 3, "stale")).status()).isEqualTo(409);
        assertThat(post(run + "/ended", ended(epoch, "EXITED_WITH_ERROR")).status()).isEqualTo(409);
        assertThat(post("/agents/by-hand/heartbeat", Map.of("epoch", epoch, "running", List.of(), "cancelling", List.of())).status())
                .isEqualTo(409);
        assertThat(api.job(id).getState()).isEqualTo(Job.StateEnum.RUNNING);

        assertThat(post(run + "/ended", ended(newEpoch, "SUCCEEDED")).status()).isEqualTo(204);
        assertThat(api.job(id).getState()).isEqualTo(Job.StateEnum.SUCCEEDED);
        assertThat(api.logTexts(id)).containsExactly("first", "second");
        // A report about an attempt that is over is refused too.
        assertThat(post(run + "/ended", ended(newEpoch, "EXITED_WITH_ERROR")).status()).isEqualTo(409);
    }

    @Test
    void aJobCancelledBeforeItsAgentStartedItIsCancelledWithoutRunning() throws ApiException {
        // The only agent with a GPU, so the job can go nowhere else.
        long epoch = agent("slow-starter").put("/agents/slow-starter", Map.of("host", "test-host",
                "gpus", List.of(Map.of("index", 0, "model", "Simulated GPU", "memoryMiB", 1024)), "cpuSlots", 1))
                .body().get("epoch").asLong();
        UUID id = api.submit(JobBodies.job("cancelled_early", "print('never run')").requireGpus(true)).getId();
        api.awaitJob(id, job -> "slow-starter".equals(job.getNode()), Duration.ofSeconds(10));
        api.jobs().cancelJob(id);

        JsonNode work = heartbeat("slow-starter", epoch);

        assertThat(work.get("assignments")).isEmpty();
        assertThat(work.get("cancels").get(0).get("jobId").asString()).isEqualTo(id.toString());
        RawHttpClient.Response ended = post("/agents/slow-starter/runs/" + id + "/1/ended",
                Map.of("epoch", epoch, "end", Map.of("result", "CANCELLED", "message", "cancelled before it started")));
        assertThat(ended.status()).isEqualTo(204);
        assertThat(api.job(id).getState()).isEqualTo(Job.StateEnum.CANCELLED);
    }

    private static JsonNode heartbeat(String agentId, long epoch) {
        RawHttpClient.Response response = post("/agents/" + agentId + "/heartbeat?waitMillis=2000",
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
    private static RawHttpClient.Response post(String path, Object body) {
        return agent(path.split("/")[2]).post(path, body);
    }

    /** The agent of this id, with a token of its own made by the admin. */
    private static RawHttpClient agent(String agentId) {
        return AGENTS.computeIfAbsent(agentId, id -> api.raw().withToken(AgentProcess.tokenFor(api, id)));
    }
}

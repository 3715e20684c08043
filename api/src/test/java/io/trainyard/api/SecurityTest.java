package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
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
 * The server as its users meet its security: nothing without a token, each user confined to its projects
 * and its role there, tokens that stop working when revoked or expired, config files only from the config
 * roots, per-token limits, and an audit record of every change.
 */
class SecurityTest {

    @TempDir
    static Path dataDir;
    static RunningServer server;
    static ApiClient admin;
    static ApiClient alice;
    static ApiClient bob;
    static ApiClient carol;
    static Path roots;

    @BeforeAll
    static void start() throws Exception {
        roots = Files.createDirectories(dataDir.resolve("configs"));
        server = RunningServer.start(TestDatabase.newDatabaseUrl(), dataDir.resolve("server"), "security-node",
                "--trainyard.config-roots=" + roots, "--trainyard.security.token-lifetime=3s",
                "--trainyard.security.rate-limits.submissions-per-second=5",
                "--trainyard.security.rate-limits.concurrent-streams=2");
        admin = server.api();
        for (String project : List.of("alpha", "beta")) {
            assertThat(admin.post("/projects", Map.of("name", project)).status()).isEqualTo(201);
        }
        alice = user("alice", Map.of("alpha", "EDITOR"));
        bob = user("bob", Map.of("beta", "EDITOR"));
        carol = user("carol", Map.of("alpha", "VIEWER"));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void everyEndpointButHealthAndTheOpenApiDocumentNeedsAToken() {
        ApiClient anonymous = admin.withToken(null);
        JsonNode paths = anonymous.get("/v3/api-docs").body().get("paths");
        List<String> open = new ArrayList<>();
        List<String> checked = new ArrayList<>();
        for (String path : paths.propertyNames()) {
            for (String method : paths.get(path).propertyNames()) {
                String concrete = path.replaceAll("\\{[^}]+}", "00000000-0000-0000-0000-000000000000");
                int status = anonymous.call(method.toUpperCase(), concrete).status();
                checked.add(method + " " + path);
                if (status != 401) {
                    open.add(method + " " + path + " -> " + status);
                }
            }
        }
        assertThat(checked).hasSizeGreaterThan(20);
        assertThat(open).isEmpty();
        assertThat(anonymous.get("/actuator/health").status()).isEqualTo(200);
        assertThat(anonymous.get("/actuator/prometheus").status()).isEqualTo(401);
        assertThat(anonymous.get("/jobs").header("WWW-Authenticate")).startsWith("Bearer");
    }

    @Test
    void theFirstAdminTokenIsInTheDataFolderReadableByTheServersUserOnly() throws Exception {
        Path file = dataDir.resolve("server/admin-token");

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(admin.get("/users/me").body().get("globalAdmin").asBoolean()).isTrue();
    }

    @Test
    void aUserSeesOnlyTheJobsOfItsProjectsAndAnotherProjectsJobIsNotFound() {
        String alphaJob = submit(alice, "alpha", "alpha_job");
        String betaJob = submit(bob, "beta", "beta_job");

        assertThat(ids(alice.get("/jobs"))).contains(alphaJob).doesNotContain(betaJob);
        assertThat(ids(bob.get("/jobs"))).contains(betaJob).doesNotContain(alphaJob);
        assertThat(ids(alice.get("/jobs?project=beta"))).isEmpty();
        assertThat(ids(admin.get("/jobs"))).contains(alphaJob, betaJob);
        for (String path : List.of("/jobs/" + betaJob, "/jobs/" + betaJob + "/events", "/jobs/" + betaJob + "/logs",
                "/jobs/" + betaJob + "/logs/stream")) {
            ApiClient.Response response = alice.get(path);
            assertThat(response.status()).as(path).isEqualTo(404);
            assertThat(response.body().get("title").asString()).isEqualTo("No such job");
        }
        assertThat(alice.post("/jobs/" + betaJob + "/cancel", Map.of()).status()).isEqualTo(404);
        assertThat(alice.post("/jobs", body("beta", "sneaky")).status()).isEqualTo(404);
        assertThat(alice.get("/projects/beta").status()).isEqualTo(404);
        assertThat(alice.get("/projects").body().findValuesAsString("name")).containsExactly("alpha");
        assertThat(bob.get("/jobs/" + betaJob).body().get("submittedBy").asString()).isEqualTo("bob");
    }

    @Test
    void aViewerMayReadButNotSubmitCancelOrRetry() {
        String id = submit(alice, "alpha", "viewed");

        assertThat(carol.get("/jobs/" + id).status()).isEqualTo(200);
        assertThat(carol.get("/jobs/" + id + "/logs").status()).isEqualTo(200);
        assertThat(carol.post("/jobs", body("alpha", "by_a_viewer")).status()).isEqualTo(403);
        assertThat(carol.post("/jobs/dry-run", body("alpha", "by_a_viewer")).status()).isEqualTo(403);
        assertThat(carol.post("/jobs/" + id + "/cancel", Map.of()).status()).isEqualTo(403);
        admin.awaitEnded(id, Duration.ofSeconds(60));
        assertThat(carol.post("/jobs/" + id + "/retry", Map.of()).status()).isEqualTo(403);
        assertThat(carol.put("/projects/alpha/members/carol", Map.of("role", "ADMIN")).status()).isEqualTo(403);
        assertThat(carol.get("/audit").status()).isEqualTo(403);
    }

    @Test
    void aRevokedOrExpiredTokenIsRefusedWithinASecond() throws Exception {
        JsonNode created = admin.post("/users/alice/tokens", Map.of("name", "to-revoke", "expiresInDays", 1)).body();
        ApiClient revoked = admin.withToken(created.get("token").asString());
        assertThat(revoked.get("/jobs").status()).isEqualTo(200);

        assertThat(admin.delete("/tokens/" + created.get("id").asString()).status()).isEqualTo(204);
        long revokedAt = System.nanoTime();
        ApiClient.await("the revoked token refused", () -> revoked.get("/jobs").status() == 401, Duration.ofSeconds(1));
        assertThat(Duration.ofNanos(System.nanoTime() - revokedAt)).isLessThan(Duration.ofSeconds(1));

        // A token without a chosen expiry lasts the server's token lifetime: 3 s here.
        ApiClient expiring = admin.withToken(admin.post("/users/alice/tokens", Map.of("name", "short")).body().get("token").asString());
        assertThat(expiring.get("/jobs").status()).isEqualTo(200);
        Thread.sleep(3_000);
        ApiClient.await("the expired token refused", () -> expiring.get("/jobs").status() == 401, Duration.ofSeconds(1));
    }

    @Test
    void configFilesAreReadOnlyUnderTheConfigRoots() throws Exception {
        Files.writeString(roots.resolve("task.yaml"), JobBodies.taskConfig("print('from a file')", "outputs/model.pt"));
        Files.writeString(roots.resolve("resource.yaml"), JobBodies.RESOURCE_CONFIG.formatted(1));
        Path outside = Files.writeString(dataDir.resolve("outside.yaml"), JobBodies.taskConfig("print('outside')", "m.pt"));
        Files.createSymbolicLink(roots.resolve("link.yaml"), outside);

        assertThat(alice.post("/jobs", byUri(roots.resolve("task.yaml").toString())).status()).isEqualTo(201);
        for (String refused : List.of(outside.toString(), "file://" + outside, roots + "/../outside.yaml",
                roots.resolve("link.yaml").toString(), "/etc/shadow", "/etc/no-such-file")) {
            ApiClient.Response response = alice.post("/jobs", byUri(refused));
            assertThat(response.status()).as(refused).isEqualTo(422);
            JsonNode error = response.body().get("errors").get(0);
            assertThat(error.get("field").asString()).isEqualTo("taskConfigUri");
            assertThat(error.get("message").asString()).as(refused).contains("not readable for submissions")
                    .doesNotContain("No such file", "exist", "denied");
        }
    }

    @Test
    void submissionsAndLiveStreamsAreLimitedPerToken() {
        ApiClient dave = user("dave", Map.of("alpha", "EDITOR"));
        List<Integer> statuses = new ArrayList<>();
        ApiClient.Response limited = null;
        for (int i = 0; i < 30 && limited == null; i++) {
            ApiClient.Response response = dave.post("/jobs/dry-run", body("alpha", "burst"));
            statuses.add(response.status());
            if (response.status() == 429) {
                limited = response;
            }
        }
        assertThat(limited).as("statuses %s", statuses).isNotNull();
        assertThat(Long.parseLong(limited.header("Retry-After"))).isPositive();
        assertThat(limited.body().get("detail").asString()).contains("5 per second");
        // Another token has a budget of its own.
        assertThat(alice.post("/jobs/dry-run", body("alpha", "other_token")).status()).isEqualTo(200);
    }

    @Test
    void everyChangeIsAudited() {
        String id = submit(alice, "alpha", "audited");
        alice.post("/jobs/" + id + "/cancel", Map.of());
        admin.awaitEnded(id, Duration.ofSeconds(60));
        alice.post("/jobs/" + id + "/retry", Map.of());
        admin.post("/users", Map.of("name", "erin"));
        admin.put("/projects/alpha/members/erin", Map.of("role", "VIEWER"));
        JsonNode token = alice.post("/tokens", Map.of("name", "laptop", "expiresInDays", 1)).body();
        alice.delete("/tokens/" + token.get("id").asString());
        String agentToken = AgentProcess.tokenFor(admin, "audited-agent");
        admin.withToken(agentToken).put("/agents/audited-agent", Map.of("host", "h", "gpus", List.of(), "cpuSlots", 1));
        admin.withToken("tya_wrong").put("/agents/audited-agent", Map.of("host", "h", "gpus", List.of(), "cpuSlots", 1));
        carol.post("/jobs/" + id + "/cancel", Map.of());

        JsonNode events = admin.get("/audit?limit=500").body().get("events");
        assertThat(audited(events, "alice", "job.submit", "/jobs/" + id, "SUCCEEDED")).isTrue();
        assertThat(audited(events, "alice", "job.cancel", "/jobs/" + id + "/cancel", "SUCCEEDED")).isTrue();
        assertThat(audited(events, "alice", "job.retry", "/jobs/" + id + "/retry", "SUCCEEDED")).isTrue();
        assertThat(audited(events, "admin", "member.set", "/projects/alpha/members/erin", "SUCCEEDED")).isTrue();
        assertThat(audited(events, "alice", "token.create", "/tokens/" + token.get("id").asString(), "SUCCEEDED")).isTrue();
        assertThat(audited(events, "alice", "token.revoke", "/tokens/" + token.get("id").asString(), "SUCCEEDED")).isTrue();
        assertThat(audited(events, "agent:audited-agent", "agent.register", "/agents/audited-agent", "SUCCEEDED")).isTrue();
        assertThat(audited(events, "anonymous", "agent.register", "/agents/audited-agent", "DENIED")).isTrue();
        assertThat(audited(events, "carol", "job.cancel", "/jobs/" + id + "/cancel", "DENIED")).isTrue();
        JsonNode first = events.get(0);
        assertThat(first.get("sourceAddress").asString()).isEqualTo("127.0.0.1");
        assertThat(first.get("at").asString()).isNotBlank();
        assertThat(admin.get("/audit?actor=carol").body().get("events").findValuesAsString("actor")).containsOnly("carol");
        assertThat(alice.get("/audit").status()).isEqualTo(403);
    }

    private static boolean audited(JsonNode events, String actor, String action, String target, String outcome) {
        for (JsonNode event : events) {
            if (event.get("actor").asString().equals(actor) && event.get("action").asString().equals(action)
                    && event.get("target").asString().equals(target) && event.get("outcome").asString().equals(outcome)) {
                return true;
            }
        }
        return false;
    }

    /** A user with these project roles and a token of its own (lasting a day), made by the admin. */
    static ApiClient user(String name, Map<String, String> roles) {
        assertThat(admin.post("/users", Map.of("name", name)).status()).isEqualTo(201);
        roles.forEach((project, role) ->
                assertThat(admin.put("/projects/" + project + "/members/" + name, Map.of("role", role)).status()).isEqualTo(200));
        return admin.withToken(admin.post("/users/" + name + "/tokens", Map.of("name", "test", "expiresInDays", 1))
                .body().get("token").asString());
    }

    private static String submit(ApiClient client, String project, String name) {
        return client.submit(body(project, name)).body().get("id").asString();
    }

    private static Map<String, Object> body(String project, String name) {
        Map<String, Object> body = JobBodies.job(name, "import time\ntime.sleep(1)\nprint('done')");
        body.put("project", project);
        return body;
    }

    private static Map<String, Object> byUri(String taskConfigUri) {
        Map<String, Object> body = body("alpha", "by_uri");
        body.remove("taskConfig");
        body.put("taskConfigUri", taskConfigUri);
        return body;
    }

    private static List<String> ids(ApiClient.Response page) {
        return page.body().get("jobs").findValuesAsString("id");
    }
}

package io.trainyard.api;

import static io.trainyard.testing.TrainyardClient.refusal;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.trainyard.client.ApiException;
import io.trainyard.client.model.AuditEvent;
import io.trainyard.client.model.Job;
import io.trainyard.client.model.JobSubmission;
import io.trainyard.client.model.Membership;
import io.trainyard.client.model.NewProject;
import io.trainyard.client.model.NewToken;
import io.trainyard.client.model.NewUser;
import io.trainyard.client.model.Problem;
import io.trainyard.client.model.Project;
import io.trainyard.client.model.Token;
import io.trainyard.testing.AgentProcess;
import io.trainyard.testing.Eventually;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RawHttpClient;
import io.trainyard.testing.RawHttpClient.SseEvent;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TestDatabase;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The server as its users meet its security: nothing without a token, each user confined to its projects
 * and its role there, tokens that stop working when revoked or expired, config files only from the config
 * roots, per-token limits, and an audit record of every change. What users do goes through the generated
 * client; what they are denied is asked over raw HTTP, path by path, status by status.
 */
class SecurityTest {

    @TempDir
    static Path dataDir;
    static RunningServer server;
    static TrainyardClient admin;
    static TrainyardClient alice;
    static TrainyardClient bob;
    static TrainyardClient carol;
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
            assertThat(admin.projects().createProjectWithHttpInfo(new NewProject().name(project)).getStatusCode()).isEqualTo(201);
        }
        alice = admin.newUser("alice", Map.of("alpha", Membership.RoleEnum.EDITOR));
        bob = admin.newUser("bob", Map.of("beta", Membership.RoleEnum.EDITOR));
        carol = admin.newUser("carol", Map.of("alpha", Membership.RoleEnum.VIEWER));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void everyEndpointButHealthAndTheOpenApiDocumentNeedsAToken() {
        RawHttpClient anonymous = admin.raw().withToken(null);
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
        assertThat(admin.users().getCurrentUser().getGlobalAdmin()).isTrue();
    }

    @Test
    void aUserSeesOnlyTheJobsOfItsProjectsAndAnotherProjectsJobIsNotFound() throws ApiException {
        UUID alphaJob = submit(alice, "alpha", "alpha_job");
        UUID betaJob = submit(bob, "beta", "beta_job");

        assertThat(ids(alice, null)).contains(alphaJob).doesNotContain(betaJob);
        assertThat(ids(bob, null)).contains(betaJob).doesNotContain(alphaJob);
        assertThat(ids(alice, "beta")).isEmpty();
        assertThat(ids(admin, null)).contains(alphaJob, betaJob);
        RawHttpClient aliceHttp = alice.raw();
        for (String path : List.of("/jobs/" + betaJob, "/jobs/" + betaJob + "/events", "/jobs/" + betaJob + "/logs",
                "/jobs/" + betaJob + "/logs/stream")) {
            RawHttpClient.Response response = aliceHttp.get(path);
            assertThat(response.status()).as(path).isEqualTo(404);
            assertThat(response.body().get("title").asString()).isEqualTo("No such job");
        }
        assertThat(aliceHttp.post("/jobs/" + betaJob + "/cancel", Map.of()).status()).isEqualTo(404);
        assertThat(aliceHttp.post("/jobs", JobBodies.asJson(body("beta", "sneaky"))).status()).isEqualTo(404);
        assertThat(aliceHttp.get("/projects/beta").status()).isEqualTo(404);
        assertThat(alice.projects().listProjects()).extracting(Project::getName).containsExactly("alpha");
        assertThat(bob.job(betaJob).getSubmittedBy()).isEqualTo("bob");
    }

    @Test
    void aViewerMayReadButNotSubmitCancelOrRetry() throws ApiException {
        UUID id = submit(alice, "alpha", "viewed");

        assertThat(carol.job(id).getId()).isEqualTo(id);
        assertThat(carol.logs().getJobLogs(id, null, null).getLines()).isNotNull();
        RawHttpClient carolHttp = carol.raw();
        assertThat(carolHttp.post("/jobs", JobBodies.asJson(body("alpha", "by_a_viewer"))).status()).isEqualTo(403);
        assertThat(carolHttp.post("/jobs/dry-run", JobBodies.asJson(body("alpha", "by_a_viewer"))).status()).isEqualTo(403);
        assertThat(carolHttp.post("/jobs/" + id + "/cancel", Map.of()).status()).isEqualTo(403);
        admin.awaitEnded(id, Duration.ofSeconds(60));
        assertThat(carolHttp.post("/jobs/" + id + "/retry", Map.of()).status()).isEqualTo(403);
        assertThat(carolHttp.put("/projects/alpha/members/carol", Map.of("role", "ADMIN")).status()).isEqualTo(403);
        assertThat(carolHttp.get("/audit").status()).isEqualTo(403);
    }

    @Test
    void aRevokedOrExpiredTokenIsRefusedWithinASecond() throws Exception {
        Token created = admin.users().createUserToken("alice", new NewToken().name("to-revoke").expiresInDays(1));
        TrainyardClient revoked = admin.withToken(created.getToken());
        assertThat(revoked.jobs().listJobs(null, null, null, null, null, null).getJobs()).isNotNull();

        assertThat(admin.tokens().revokeTokenWithHttpInfo(created.getId()).getStatusCode()).isEqualTo(204);
        long revokedAt = System.nanoTime();
        awaitRefused(revoked, Duration.ofSeconds(1));
        assertThat(Duration.ofNanos(System.nanoTime() - revokedAt)).isLessThan(Duration.ofSeconds(1));

        // A token without a chosen expiry lasts the server's token lifetime: 3 s here.
        TrainyardClient expiring = admin.withToken(admin.users().createUserToken("alice", new NewToken().name("short")).getToken());
        assertThat(expiring.jobs().listJobs(null, null, null, null, null, null).getJobs()).isNotNull();
        Thread.sleep(3_000);
        awaitRefused(expiring, Duration.ofSeconds(1));
    }

    /**
     * A stream opened with a token ends, with an {@code error} event saying why, within 2 s of the token being
     * revoked or expiring, or of its user leaving the job's project: not when the job ends. The job prints a line
     * every 0.2 s for two minutes, so the stream is live throughout.
     */
    @Test
    void openStreamsEndWithinTwoSecondsOfLosingAccess() throws Exception {
        UUID id = alice.submit(JobBodies.job("ticking", JobBodies.ticking(600, 0.2)).project("alpha")).getId();
        Eventually.await("the job's first lines", () -> !alice.logTexts(id).isEmpty(), Duration.ofSeconds(60));
        String logs = "/jobs/" + id + "/logs/stream";

        Token revoked = admin.users().createUserToken("alice", new NewToken().name("revoked").expiresInDays(1));
        CompletableFuture<List<SseEvent>> revokedStream = following(admin.raw().withToken(revoked.getToken()), logs);
        Thread.sleep(1_000);
        admin.tokens().revokeToken(revoked.getId());
        assertThat(assertEndsWithError(revokedStream, System.nanoTime(), 401)).extracting(SseEvent::event).contains("log");

        TrainyardClient frank = admin.newUser("frank", Map.of("alpha", Membership.RoleEnum.VIEWER));
        CompletableFuture<List<SseEvent>> removedStream = following(frank.raw(), logs);
        CompletableFuture<List<SseEvent>> removedMetrics = following(frank.raw(), "/jobs/" + id + "/metrics/stream");
        Thread.sleep(1_000);
        admin.projects().removeProjectMember("alpha", "frank");
        long removedAt = System.nanoTime();
        assertThat(assertEndsWithError(removedStream, removedAt, 404)).extracting(SseEvent::event).contains("log");
        assertEndsWithError(removedMetrics, removedAt, 404);

        // Without a chosen expiry a token lasts the server's token lifetime: 3 s here.
        Token expiring = admin.users().createUserToken("alice", new NewToken().name("expiring"));
        CompletableFuture<List<SseEvent>> expiringStream = following(admin.raw().withToken(expiring.getToken()), logs);
        Thread.sleep(Math.max(0, Duration.between(Instant.now(), expiring.getExpiresAt().toInstant()).toMillis()));
        assertThat(assertEndsWithError(expiringStream, System.nanoTime(), 401)).extracting(SseEvent::event).contains("log");

        alice.jobs().cancelJob(id);
    }

    /** Follows a stream on another thread until it ends. */
    private static CompletableFuture<List<SseEvent>> following(RawHttpClient http, String path) {
        return CompletableFuture.supplyAsync(() -> http.follow(path, null, Integer.MAX_VALUE));
    }

    /** The stream ends within 2 s of {@code since}, with an error event of this status and no end event; its events. */
    private static List<SseEvent> assertEndsWithError(CompletableFuture<List<SseEvent>> stream, long since, int status) throws Exception {
        List<SseEvent> events = stream.get(30, TimeUnit.SECONDS);
        assertThat(Duration.ofNanos(System.nanoTime() - since)).isLessThan(Duration.ofSeconds(2));
        assertThat(events).extracting(SseEvent::event).doesNotContain("end");
        SseEvent last = events.getLast();
        assertThat(last.event()).isEqualTo("error");
        JsonNode problem = RawHttpClient.JSON.readTree(last.data());
        assertThat(problem.get("status").asInt()).isEqualTo(status);
        assertThat(problem.get("detail").asString()).isNotBlank();
        return events;
    }

    @Test
    void configFilesAreReadOnlyUnderTheConfigRoots() throws Exception {
        Files.writeString(roots.resolve("task.yaml"), JobBodies.taskConfig("print('from a file')", "outputs/model.pt"));
        Files.writeString(roots.resolve("resource.yaml"), JobBodies.RESOURCE_CONFIG.formatted(1));
        Path outside = Files.writeString(dataDir.resolve("outside.yaml"), JobBodies.taskConfig("print('outside')", "m.pt"));
        Files.createSymbolicLink(roots.resolve("link.yaml"), outside);

        assertThat(alice.jobs().submitJobWithHttpInfo(byUri(roots.resolve("task.yaml").toString()), null).getStatusCode())
                .isEqualTo(201);
        for (String refused : List.of(outside.toString(), "file://" + outside, roots + "/../outside.yaml",
                roots.resolve("link.yaml").toString(), "/etc/shadow", "/etc/no-such-file")) {
            ApiException error = refusal(() -> alice.jobs().submitJob(byUri(refused), null));
            assertThat(error.getCode()).as(refused).isEqualTo(422);
            Problem problem = TrainyardClient.problem(error.getResponseBody());
            assertThat(problem.getErrors().getFirst().getField()).isEqualTo("taskConfigUri");
            assertThat(problem.getErrors().getFirst().getMessage()).as(refused).contains("not readable for submissions")
                    .doesNotContain("No such file", "exist", "denied");
        }
    }

    /**
     * Whether a path leads out of the roots (through a symlinked folder, or {@code ..} after one), names nothing,
     * or names a folder, the answer is byte for byte the same, and it shows no path of the server: a submission
     * cannot probe the host's files. Raw HTTP, to compare whole bodies.
     */
    @Test
    void everyUnreadableConfigPathGetsTheSameAnswerNamingNoServerPath() throws Exception {
        Path probes = Files.createDirectories(roots.resolve("probes"));
        Files.createSymbolicLink(probes.resolve("etcdir"), Path.of("/etc"));
        Files.createSymbolicLink(probes.resolve("dangling.yaml"), dataDir.resolve("no-such-target.yaml"));
        Files.createDirectories(probes.resolve("folder.yaml"));
        RawHttpClient aliceHttp = alice.raw();
        List<String> bodies = new ArrayList<>();
        for (String uri : List.of("etcdir/shadow", "etcdir/no_such_zz", "etcdir/../root/.bashrc", "etcdir/../root/.nope",
                "missing.yaml", "dangling.yaml", "folder.yaml")) {
            RawHttpClient.Response answer = aliceHttp.post("/jobs", JobBodies.asJson(byUri(probes + "/" + uri)));
            assertThat(answer.status()).as(uri).isEqualTo(422);
            bodies.add(answer.raw().body());
        }

        assertThat(bodies).as("the answers").containsOnly(bodies.getFirst());
        Problem problem = TrainyardClient.problem(bodies.getFirst());
        assertThat(problem.getErrors()).singleElement().satisfies(error -> {
            assertThat(error.getField()).isEqualTo("taskConfigUri");
            assertThat(error.getMessage()).contains("not readable for submissions");
        });
        assertThat(bodies.getFirst()).doesNotContain(dataDir.toString(), "/etc", "/root");
    }

    /** A file under the roots that opens but is not UTF-8 says so: only the roots' own files are told apart. */
    @Test
    void aConfigFileUnderTheRootsThatIsNotUtf8SaysSo() throws Exception {
        Path latin1 = Files.write(roots.resolve("latin1.yaml"), new byte[] {'a', ':', ' ', (byte) 0xe9, '\n'});

        ApiException error = refusal(() -> alice.jobs().submitJob(byUri(latin1.toString()), null));

        assertThat(error.getCode()).isEqualTo(422);
        assertThat(TrainyardClient.problem(error.getResponseBody()).getErrors()).singleElement()
                .satisfies(field -> assertThat(field.getMessage()).isEqualTo("is not UTF-8 text"));
    }

    /** The limit's answer carries a Retry-After header: raw HTTP. */
    @Test
    void submissionsAndLiveStreamsAreLimitedPerToken() throws ApiException {
        RawHttpClient dave = admin.newUser("dave", Map.of("alpha", Membership.RoleEnum.EDITOR)).raw();
        List<Integer> statuses = new ArrayList<>();
        RawHttpClient.Response limited = null;
        for (int i = 0; i < 30 && limited == null; i++) {
            RawHttpClient.Response response = dave.post("/jobs/dry-run", JobBodies.asJson(body("alpha", "burst")));
            statuses.add(response.status());
            if (response.status() == 429) {
                limited = response;
            }
        }
        assertThat(limited).as("statuses %s", statuses).isNotNull();
        assertThat(Long.parseLong(limited.header("Retry-After"))).isPositive();
        assertThat(limited.body().get("detail").asString()).contains("5 per second");
        // Another token has a budget of its own.
        assertThat(alice.jobs().dryRunJob(body("alpha", "other_token")).getBackend()).isEqualTo("local");
    }

    /**
     * Guesses from one address (127.0.0.2, another loopback address, so the rest of this class's requests are not
     * throttled): a 401 each until the budget of 30 a minute (the default; a little more as it refills meanwhile)
     * is spent, then 429 with Retry-After, for the right token too, while other addresses go on as before.
     */
    @Test
    void anAddressThatFailsToAuthenticateTooOftenIsThrottled() throws Exception {
        HttpClient guesser = HttpClient.newBuilder().localAddress(InetAddress.getByName("127.0.0.2")).build();
        List<Integer> statuses = new ArrayList<>();
        HttpResponse<String> throttled = null;
        for (int i = 0; i < 60 && throttled == null; i++) {
            HttpResponse<String> response = getJobs(guesser, "ty_guess" + i);
            statuses.add(response.statusCode());
            if (response.statusCode() == 429) {
                throttled = response;
            }
        }

        assertThat(throttled).as("statuses %s", statuses).isNotNull();
        assertThat(statuses.subList(0, statuses.size() - 1)).hasSizeGreaterThanOrEqualTo(30).containsOnly(401);
        assertThat(Long.parseLong(throttled.headers().firstValue("Retry-After").orElseThrow())).isPositive();
        assertThat(throttled.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(RawHttpClient.JSON.readTree(throttled.body()).get("detail").asString()).contains("30 per minute");
        assertThat(getJobs(guesser, admin.token()).statusCode()).isEqualTo(429);
        assertThat(admin.raw().get("/jobs").status()).isEqualTo(200);
        assertThat(admin.raw().get("/actuator/prometheus").raw().body())
                .containsPattern("trainyard_security_authentication_throttled_total(\\{[^}]*})? [1-9]");
    }

    private static HttpResponse<String> getJobs(HttpClient client, String token) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(admin.baseUrl() + "/jobs"))
                .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void everyChangeIsAudited() throws ApiException {
        UUID id = submit(alice, "alpha", "audited");
        alice.jobs().cancelJob(id);
        admin.awaitEnded(id, Duration.ofSeconds(60));
        alice.jobs().retryJob(id);
        admin.users().createUser(new NewUser().name("erin"));
        admin.projects().setProjectMember("alpha", "erin", new Membership().role(Membership.RoleEnum.VIEWER));
        Token token = alice.tokens().createToken(new NewToken().name("laptop").expiresInDays(1));
        alice.tokens().revokeToken(token.getId());
        // Agents register over the agent protocol, which is not in the public contract.
        String agentToken = AgentProcess.tokenFor(admin, "audited-agent");
        Map<String, Object> registration = Map.of("host", "h", "gpus", List.of(), "cpuSlots", 1);
        admin.raw().withToken(agentToken).put("/agents/audited-agent", registration);
        admin.raw().withToken("tya_wrong").put("/agents/audited-agent", registration);
        carol.raw().post("/jobs/" + id + "/cancel", Map.of());

        List<AuditEvent> events = admin.audit().listAuditEvents(null, null, null, null, null, null, null, 500).getEvents();
        assertThat(audited(events, "alice", "job.submit", "/jobs/" + id, AuditEvent.OutcomeEnum.SUCCEEDED)).isTrue();
        assertThat(events).filteredOn(event -> event.getTarget().equals("/jobs/" + id))
                .extracting(AuditEvent::getSourceAddress, AuditEvent::getDetail).containsExactly(tuple("127.0.0.1", "HTTP 201"));
        assertThat(audited(events, "alice", "job.cancel", "/jobs/" + id + "/cancel", AuditEvent.OutcomeEnum.SUCCEEDED)).isTrue();
        assertThat(audited(events, "alice", "job.retry", "/jobs/" + id + "/retry", AuditEvent.OutcomeEnum.SUCCEEDED)).isTrue();
        assertThat(audited(events, "admin", "member.set", "/projects/alpha/members/erin", AuditEvent.OutcomeEnum.SUCCEEDED)).isTrue();
        assertThat(audited(events, "alice", "token.create", "/tokens/" + token.getId(), AuditEvent.OutcomeEnum.SUCCEEDED)).isTrue();
        assertThat(audited(events, "alice", "token.revoke", "/tokens/" + token.getId(), AuditEvent.OutcomeEnum.SUCCEEDED)).isTrue();
        assertThat(audited(events, "agent:audited-agent", "agent.register", "/agents/audited-agent", AuditEvent.OutcomeEnum.SUCCEEDED))
                .isTrue();
        assertThat(audited(events, "anonymous", "agent.register", "/agents/audited-agent", AuditEvent.OutcomeEnum.DENIED)).isTrue();
        assertThat(audited(events, "carol", "job.cancel", "/jobs/" + id + "/cancel", AuditEvent.OutcomeEnum.DENIED)).isTrue();
        AuditEvent first = events.getFirst();
        assertThat(first.getSourceAddress()).isEqualTo("127.0.0.1");
        assertThat(first.getAt()).isNotNull();
        assertThat(admin.audit().listAuditEvents("carol", null, null, null, null, null, null, null).getEvents())
                .extracting(AuditEvent::getActor).containsOnly("carol");
        assertThat(alice.raw().get("/audit").status()).isEqualTo(403);
    }

    /** Whether the change has its record, once: a submission's is written with its job, not again after the answer. */
    private static boolean audited(List<AuditEvent> events, String actor, String action, String target,
            AuditEvent.OutcomeEnum outcome) {
        return events.stream().filter(event -> event.getActor().equals(actor) && event.getAction().equals(action)
                && event.getTarget().equals(target) && event.getOutcome() == outcome).count() == 1;
    }

    /** Waits until the token is refused: a 401 over raw HTTP, as the generated client would only throw. */
    private static void awaitRefused(TrainyardClient client, Duration timeout) {
        RawHttpClient http = client.raw();
        Eventually.await("the token refused", () -> http.get("/jobs").status() == 401, timeout);
    }

    private static UUID submit(TrainyardClient client, String project, String name) {
        return client.submit(body(project, name)).getId();
    }

    private static JobSubmission body(String project, String name) {
        return JobBodies.job(name, "import time\ntime.sleep(1)\nprint('done')").project(project);
    }

    private static JobSubmission byUri(String taskConfigUri) {
        return body("alpha", "by_uri").taskConfig(null).taskConfigUri(taskConfigUri);
    }

    private static List<UUID> ids(TrainyardClient client, String project) throws ApiException {
        return client.jobs().listJobs(null, null, null, project == null ? null : List.of(project), null, null).getJobs()
                .stream().map(Job::getId).toList();
    }
}

package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import io.trainyard.client.ApiException;
import io.trainyard.client.ApiResponse;
import io.trainyard.client.model.LaunchPlan;
import io.trainyard.client.model.NewToken;
import io.trainyard.client.model.Token;
import io.trainyard.testing.Eventually;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RawHttpClient;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TestDatabase;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard's session as a browser meets it: a user's token traded for an HttpOnly, SameSite=Strict cookie,
 * changes with that cookie refused without the CSRF token, the session ended by signing out or by revoking the
 * token, and bearer clients untouched by any of it. The browser's requests are raw HTTP with a cookie jar; the
 * generated client is the bearer client.
 */
class SessionTest {

    @TempDir
    static Path dataDir;
    static String databaseUrl;
    static RunningServer server;
    static TrainyardClient admin;

    @BeforeAll
    static void start() {
        databaseUrl = TestDatabase.newDatabaseUrl();
        server = RunningServer.start(databaseUrl, dataDir, "session-node",
                "--trainyard.config-roots=" + dataDir);
        admin = server.api();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /**
     * A browser: keeps cookies, sends no Authorization header, and sends the page's origin with every request (a
     * page of the server's own unless a test says otherwise, as a browser does for fetch()).
     */
    static final class Browser {
        final CookieManager cookies = new CookieManager();
        final HttpClient http = HttpClient.newBuilder().cookieHandler(cookies).build();
        String origin = admin.baseUrl();
        String referer;

        HttpResponse<String> send(String method, String path, String json, boolean withCsrf) throws IOException, InterruptedException {
            return send(method, path, json, withCsrf ? cookie("XSRF-TOKEN") : null);
        }

        HttpResponse<String> send(String method, String path, String json, String csrfToken) throws IOException, InterruptedException {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(admin.baseUrl() + path))
                    .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json))
                    .header("Content-Type", "application/json");
            if (csrfToken != null) {
                request.header("X-XSRF-TOKEN", csrfToken);
            }
            if (origin != null) {
                request.header("Origin", origin);
            }
            if (referer != null) {
                request.header("Referer", referer);
            }
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }

        String cookie(String name) {
            return cookies.getCookieStore().getCookies().stream().filter(c -> c.getName().equals(name))
                    .map(HttpCookie::getValue).findFirst().orElse("");
        }

        HttpResponse<String> signIn(String token) throws IOException, InterruptedException {
            send("GET", "/session", null, false);
            return send("POST", "/session", RawHttpClient.JSON.writeValueAsString(Map.of("token", token)), true);
        }
    }

    @Test
    void aTokenIsTradedForAnHttpOnlySameSiteStrictCookieThatAuthenticatesTheApi() throws Exception {
        Browser browser = new Browser();
        HttpResponse<String> before = browser.send("GET", "/session", null, false);
        assertThat(before.statusCode()).isEqualTo(401);
        assertThat(browser.cookie("XSRF-TOKEN")).isNotEmpty();

        HttpResponse<String> signedIn = browser.signIn(admin.token());

        assertThat(signedIn.statusCode()).isEqualTo(200);
        assertThat(RawHttpClient.JSON.readTree(signedIn.body()).get("name").asString()).isEqualTo("admin");
        String setCookie = signedIn.headers().allValues("Set-Cookie").stream()
                .filter(value -> value.startsWith("TRAINYARD_SESSION=")).findFirst().orElseThrow();
        assertThat(setCookie).contains("HttpOnly").contains("SameSite=Strict");
        assertThat(browser.send("GET", "/jobs", null, false).statusCode()).isEqualTo(200);
        assertThat(browser.send("GET", "/session", null, false).statusCode()).isEqualTo(200);
    }

    @Test
    void aChangeMadeWithTheCookieNeedsTheCsrfToken() throws Exception {
        Browser browser = new Browser();
        browser.signIn(admin.token());
        String submission = RawHttpClient.JSON.writeValueAsString(JobBodies.asJson(JobBodies.job("csrf_probe", "print(1)")));

        HttpResponse<String> forged = browser.send("POST", "/jobs/dry-run", submission, false);
        HttpResponse<String> ours = browser.send("POST", "/jobs/dry-run", submission, true);

        assertThat(forged.statusCode()).isEqualTo(403);
        assertThat(RawHttpClient.JSON.readTree(forged.body()).get("detail").asString()).contains("X-XSRF-TOKEN");
        assertThat(ours.statusCode()).isEqualTo(200);
    }

    @Test
    void signingInNeedsTheCsrfTokenAndAUsersValidToken() throws Exception {
        Browser browser = new Browser();
        browser.send("GET", "/session", null, false);
        String body = RawHttpClient.JSON.writeValueAsString(Map.of("token", admin.token()));

        assertThat(browser.send("POST", "/session", body, false).statusCode()).isEqualTo(403);
        HttpResponse<String> wrong = browser.send("POST", "/session", "{\"token\": \"ty_not-a-token\"}", true);
        assertThat(wrong.statusCode()).isEqualTo(422);
        assertThat(wrong.body()).contains("\"field\":\"token\"");
        assertThat(browser.send("GET", "/jobs", null, false).statusCode()).isEqualTo(401);
    }

    @Test
    void aChangeFromAnotherSitesPageIsRefusedEvenWithTheCsrfToken() throws Exception {
        Browser browser = new Browser();
        browser.signIn(admin.token());
        String submission = RawHttpClient.JSON.writeValueAsString(JobBodies.asJson(JobBodies.job("origin_probe", "print(1)")));

        browser.origin = "https://attacker.example";
        HttpResponse<String> foreign = browser.send("POST", "/jobs/dry-run", submission, true);
        browser.origin = null;
        browser.referer = "https://attacker.example/page.html";
        HttpResponse<String> foreignReferer = browser.send("POST", "/jobs/dry-run", submission, true);
        browser.referer = null;
        HttpResponse<String> neither = browser.send("POST", "/jobs/dry-run", submission, true);
        browser.referer = admin.baseUrl() + "/ui/submit";
        HttpResponse<String> ownReferer = browser.send("POST", "/jobs/dry-run", submission, true);

        assertThat(foreign.statusCode()).isEqualTo(403);
        assertThat(foreign.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(RawHttpClient.JSON.readTree(foreign.body()).get("detail").asString()).contains("Origin");
        assertThat(foreignReferer.statusCode()).isEqualTo(403);
        assertThat(neither.statusCode()).isEqualTo(403);
        assertThat(ownReferer.statusCode()).isEqualTo(200);
    }

    @Test
    void signingInFromAnotherSitesPageIsRefused() throws Exception {
        Browser browser = new Browser();
        browser.send("GET", "/session", null, false);
        browser.origin = "http://127.0.0.1:1"; // another port is another origin

        HttpResponse<String> signIn = browser.send("POST", "/session",
                RawHttpClient.JSON.writeValueAsString(Map.of("token", admin.token())), true);

        assertThat(signIn.statusCode()).isEqualTo(403);
        assertThat(browser.cookie("TRAINYARD_SESSION")).isEmpty();
    }

    @Test
    void signingInAndOutRenewsTheCsrfToken() throws Exception {
        Browser browser = new Browser();
        browser.send("GET", "/session", null, false);
        String beforeSignIn = browser.cookie("XSRF-TOKEN");
        String submission = RawHttpClient.JSON.writeValueAsString(JobBodies.asJson(JobBodies.job("renewed_csrf", "print(1)")));

        assertThat(browser.signIn(admin.token()).statusCode()).isEqualTo(200);
        String afterSignIn = browser.cookie("XSRF-TOKEN");

        assertThat(afterSignIn).isNotEmpty().isNotEqualTo(beforeSignIn);
        assertThat(browser.send("POST", "/jobs/dry-run", submission, beforeSignIn).statusCode()).isEqualTo(403);
        assertThat(browser.send("POST", "/jobs/dry-run", submission, afterSignIn).statusCode()).isEqualTo(200);
        assertThat(browser.send("DELETE", "/session", null, afterSignIn).statusCode()).isEqualTo(204);
        assertThat(browser.cookie("XSRF-TOKEN")).isNotEmpty().isNotEqualTo(afterSignIn);
    }

    @Test
    void theDashboardIsServedWithAStrictContentSecurityPolicy() throws Exception {
        HttpResponse<String> page = new Browser().send("GET", "/ui/jobs", null, false);

        String policy = page.headers().firstValue("Content-Security-Policy").orElse("");
        assertThat(policy).contains("default-src 'self'", "script-src 'self';", "object-src 'none'", "frame-ancestors 'none'");
        assertThat(policy.split("script-src")[1].split(";")[0]).doesNotContain("unsafe");
        assertThat(page.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        assertThat(page.headers().firstValue("X-Frame-Options")).hasValue("DENY");
        assertThat(page.headers().firstValue("Referrer-Policy")).hasValue("same-origin");
        // TensorBoard's pages bring a policy of their own (with their inline scripts' hashes): none of ours there.
        RawHttpClient.Response tensorBoard = admin.raw().get("/jobs/00000000-0000-0000-0000-000000000000/tensorboard/");
        assertThat(tensorBoard.status()).isEqualTo(404);
        assertThat(tensorBoard.header("Content-Security-Policy")).isNull();
    }

    @Test
    void signingOutEndsTheSession() throws Exception {
        Browser browser = new Browser();
        browser.signIn(admin.token());

        assertThat(browser.send("DELETE", "/session", null, true).statusCode()).isEqualTo(204);

        assertThat(browser.send("GET", "/jobs", null, false).statusCode()).isEqualTo(401);
    }

    @Test
    void revokingTheTokenEndsItsSessions() throws Exception {
        Token token = admin.tokens().createToken(new NewToken().name("dashboard"));
        Browser browser = new Browser();
        assertThat(browser.signIn(token.getToken()).statusCode()).isEqualTo(200);
        assertThat(browser.send("GET", "/jobs", null, false).statusCode()).isEqualTo(200);

        assertThat(admin.tokens().revokeTokenWithHttpInfo(token.getId()).getStatusCode()).isEqualTo(204);

        Eventually.await("the revoked token's session to end",
                () -> browser.send("GET", "/jobs", null, false).statusCode() == 401, Duration.ofSeconds(5));
    }

    /** The dashboard's log stream, opened with the cookie, ends with an error event within 2 s of the revocation. */
    @Test
    void revokingTheTokenEndsItsSessionsOpenStreams() throws Exception {
        UUID id = admin.submit(JobBodies.job("ticking_for_a_session", JobBodies.ticking(600, 0.2))).getId();
        Eventually.await("the job's first lines", () -> !admin.logTexts(id).isEmpty(), Duration.ofSeconds(60));
        Token token = admin.tokens().createToken(new NewToken().name("dashboard stream"));
        Browser browser = new Browser();
        assertThat(browser.signIn(token.getToken()).statusCode()).isEqualTo(200);
        CompletableFuture<HttpResponse<String>> stream = CompletableFuture.supplyAsync(() -> {
            try {
                return browser.send("GET", "/jobs/" + id + "/logs/stream", null, false);
            } catch (IOException | InterruptedException e) {
                throw new CompletionException(e);
            }
        });
        Thread.sleep(1_000);

        admin.tokens().revokeToken(token.getId());
        long revokedAt = System.nanoTime();

        String events = stream.get(30, TimeUnit.SECONDS).body();
        assertThat(Duration.ofNanos(System.nanoTime() - revokedAt)).isLessThan(Duration.ofSeconds(2));
        assertThat(events).contains("event: log").doesNotContain("event: end");
        assertThat(events.strip()).containsPattern("event: error\ndata: \\{[^\n]*\"status\":401[^\n]*}$");
        admin.jobs().cancelJob(id);
    }

    /**
     * The session is a row of the database, not of one server's memory: another replica serves it (a load balancer
     * need not keep a browser on one), and so does a server restarted on the same database. What the row holds
     * for the token is its hash, which no bearer request is let in with.
     */
    @Test
    void anotherReplicaServesTheSessionAndTheStoreHoldsNoToken(@TempDir Path otherDataDir) throws Exception {
        Browser browser = new Browser();
        assertThat(browser.signIn(admin.token()).statusCode()).isEqualTo(200);
        String cookie = "TRAINYARD_SESSION=" + browser.cookie("TRAINYARD_SESSION");

        try (RunningServer other = RunningServer.start(databaseUrl, otherDataDir, "session-node-2")) {
            HttpResponse<String> there = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(other.api().baseUrl() + "/session")).header("Cookie", cookie).GET().build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(there.statusCode()).isEqualTo(200);
            assertThat(RawHttpClient.JSON.readTree(there.body()).get("name").asString()).isEqualTo("admin");
        }
        try (Connection connection = DriverManager.getConnection(databaseUrl);
                ResultSet stored = connection.createStatement().executeQuery("select attribute_bytes from spring_session_attributes")) {
            while (stored.next()) {
                assertThat(new String(stored.getBytes(1), StandardCharsets.ISO_8859_1)).doesNotContain(admin.token());
            }
        }
    }

    @Test
    void bearerClientsNeedNoCsrfTokenAndGetNoCookies() throws ApiException {
        ApiResponse<LaunchPlan> dryRun = admin.jobs().dryRunJobWithHttpInfo(JobBodies.job("bearer_probe", "print(1)"));

        assertThat(dryRun.getStatusCode()).isEqualTo(200);
        // Neither a session nor an XSRF-TOKEN cookie: an API client has no use for either.
        assertThat(dryRun.getHeaders().getOrDefault("set-cookie", List.of())).isEmpty();
    }
}

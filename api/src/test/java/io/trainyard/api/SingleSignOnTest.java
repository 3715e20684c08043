package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.CookieManager;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.trainyard.client.model.NewProject;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TestDatabase;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import no.nav.security.mock.oauth2.token.DefaultOAuth2TokenCallback;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The dashboard's single sign-on against a real OIDC provider (NAV's mock-oauth2-server, started here), walked
 * through as a browser walks it, one redirect at a time: the server sends the browser to the provider with a PKCE
 * challenge, the provider sends it back with a code, the server trades the code (and the verifier) for an ID token and
 * starts the same HttpOnly, SameSite=Strict session as a sign-in with an API token, whose user and project roles
 * come from the ID token's claims.
 */
class SingleSignOnTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** A load balancer's address, as the browser and the provider know it (replicas trust its forwarded headers). */
    private static final String BALANCED = "http://trainyard.test";

    @TempDir
    static Path dataDir;
    static MockOAuth2Server provider;
    static String databaseUrl;
    static RunningServer server;

    @BeforeAll
    static void start() throws Exception {
        provider = new MockOAuth2Server();
        provider.start();
        databaseUrl = TestDatabase.newDatabaseUrl();
        server = RunningServer.start(databaseUrl, dataDir, "sso-node", replicaArguments());
        server.api().projects().createProject(new NewProject().name("ranking"));
    }

    private static String[] replicaArguments() {
        return new String[] {"--trainyard.security.oidc.login.issuer-uri=" + provider.issuerUrl("corp"),
            "--trainyard.security.oidc.login.client-id=trainyard-dashboard",
            "--trainyard.security.oidc.user-claim=email",
            "--trainyard.security.oidc.group-roles.ml-ranking=ranking:editor",
            "--server.forward-headers-strategy=native"};
    }

    @AfterAll
    static void stop() {
        server.close();
        provider.shutdown();
    }

    @Test
    void aUserSignsInThroughTheProviderAndGetsTheRolesOfItsGroups() throws Exception {
        provider.enqueueCallback(new DefaultOAuth2TokenCallback("corp", "alice", "JWT", List.of("trainyard-dashboard"),
                Map.of("email", "alice@example.com", "groups", List.of("ml-ranking")), 3600));
        HttpClient browser = browser();
        assertThat(get(browser, baseUrl() + "/session/sso").body()).isEqualTo("{\"loginUrl\":\"/oauth2/authorization/sso\"}");

        HttpResponse<String> toProvider = get(browser, baseUrl() + "/oauth2/authorization/sso");
        assertThat(toProvider.statusCode()).isEqualTo(302);
        String authorize = location(toProvider);
        assertThat(authorize).startsWith(provider.issuerUrl("corp") + "/authorize?")
                .contains("client_id=trainyard-dashboard", "code_challenge_method=S256", "code_challenge=");
        HttpResponse<String> back = get(browser, authorize);
        assertThat(location(back)).startsWith(baseUrl() + "/login/oauth2/code/sso?code=");
        HttpResponse<String> signedIn = get(browser, location(back));

        assertThat(signedIn.statusCode()).isEqualTo(302);
        assertThat(location(signedIn)).isEqualTo(baseUrl() + "/");
        String cookie = signedIn.headers().allValues("Set-Cookie").stream().filter(set -> set.startsWith("TRAINYARD_SESSION=")).findFirst()
                .orElseThrow();
        assertThat(cookie).contains("HttpOnly").containsIgnoringCase("SameSite=Strict");
        JsonNode session = JSON.readTree(get(browser, baseUrl() + "/session").body());
        assertThat(session.get("name").asString()).isEqualTo("oidc:alice@example.com");
        assertThat(session.get("roles").get("ranking").asString()).isEqualTo("EDITOR");
        assertThat(session.get("globalAdmin").asBoolean()).isFalse();
        // The same CSRF rules as a token's session: a change with the cookie alone is refused.
        String job = JSON.writeValueAsString(JobBodies.asJson(JobBodies.job("from_sso", "pass").project("ranking")));
        HttpResponse<String> unechoed = browser.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/jobs"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(job)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(unechoed.statusCode()).isEqualTo(403);
    }

    /**
     * Two replicas behind one load balancer: the sign-in starts on one, and the provider's redirect back reaches the
     * other, which completes it (the sign-ins under way are in the database, not in one replica's memory; they
     * survive a replica's restart alike); the session then works on both.
     */
    @Test
    void theProvidersRedirectBackMayReachAnotherReplica(@TempDir Path otherDataDir) throws Exception {
        provider.enqueueCallback(new DefaultOAuth2TokenCallback("corp", "bob", "JWT", List.of("trainyard-dashboard"),
                Map.of("email", "bob@example.com", "groups", List.of("ml-ranking")), 3600));
        try (RunningServer other = RunningServer.start(databaseUrl, otherDataDir, "sso-node-2", replicaArguments())) {
            HttpClient browser = browser();
            String authorize = location(viaBalancer(browser, baseUrl(), BALANCED + "/oauth2/authorization/sso"));
            String back = location(get(browser, authorize));
            assertThat(back).startsWith(BALANCED + "/login/oauth2/code/sso?code=");

            HttpResponse<String> signedIn = viaBalancer(browser, other.api().baseUrl(), back);

            assertThat(location(signedIn)).isEqualTo(BALANCED + "/");
            for (String replica : List.of(baseUrl(), other.api().baseUrl())) {
                JsonNode session = JSON.readTree(viaBalancer(browser, replica, BALANCED + "/session").body());
                assertThat(session.get("name").asString()).isEqualTo("oidc:bob@example.com");
            }
        }
    }

    @Test
    void aCallbackTheServerDidNotStartSendsTheBrowserBackWithTheReason() throws Exception {
        HttpResponse<String> forged = get(browser(), baseUrl() + "/login/oauth2/code/sso?code=stolen&state=made-up");

        assertThat(forged.statusCode()).isEqualTo(302);
        assertThat(URLDecoder.decode(location(forged), StandardCharsets.UTF_8))
                .isEqualTo(baseUrl() + "/?ssoError=the sign-in was not started by this server, or took longer than 10 minutes: start again");
        assertThat(get(browser(), baseUrl() + "/session").statusCode()).isEqualTo(401);
    }

    @Test
    void aProviderThatCannotBeReachedSendsTheBrowserBackWithTheReason(@TempDir Path otherDataDir) throws Exception {
        try (RunningServer unreachable = RunningServer.start(TestDatabase.newDatabaseUrl(), otherDataDir, "sso-unreachable",
                "--trainyard.security.oidc.login.issuer-uri=http://127.0.0.1:9/corp",
                "--trainyard.security.oidc.login.client-id=trainyard-dashboard")) {
            HttpResponse<String> start = get(browser(), unreachable.api().baseUrl() + "/oauth2/authorization/sso");

            assertThat(start.statusCode()).isEqualTo(302);
            assertThat(URLDecoder.decode(location(start), StandardCharsets.UTF_8))
                    .startsWith(unreachable.api().baseUrl() + "/?ssoError=the sign-in provider http://127.0.0.1:9/corp could not be reached");
        }
    }

    private static String baseUrl() {
        return server.api().baseUrl();
    }

    private static HttpClient browser() {
        return HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).cookieHandler(new CookieManager()).build();
    }

    private static HttpResponse<String> get(HttpClient browser, String url) throws Exception {
        return browser.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A request to the balancer's address, as the balancer sends it on to one replica, with the headers it adds. */
    private static HttpResponse<String> viaBalancer(HttpClient browser, String replica, String url) throws Exception {
        return browser.send(HttpRequest.newBuilder(URI.create(url.replace(BALANCED, replica)))
                .header("X-Forwarded-For", "203.0.113.7").header("X-Forwarded-Proto", "http")
                .header("X-Forwarded-Host", URI.create(BALANCED).getAuthority()).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String location(HttpResponse<String> response) {
        return response.headers().firstValue("Location").orElseThrow(() -> new AssertionError(
                "no redirect: " + response.statusCode() + " " + response.body()));
    }
}

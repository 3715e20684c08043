package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Date;
import java.util.List;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import io.trainyard.client.ApiResponse;
import io.trainyard.client.model.CurrentUser;
import io.trainyard.client.model.Job;
import io.trainyard.client.model.NewProject;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TestDatabase;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OIDC beside the server's own tokens: an issuer played by this test (its discovery document and JWK set served
 * over HTTP, its JWTs signed with a key made here) and a server configured with its issuer URI. A JWT names the
 * user by a claim and grants project roles by its groups; a JWT the issuer did not sign, or one expired, or
 * of another issuer, is refused.
 */
class OidcTest {

    @TempDir
    static Path dataDir;
    static HttpServer issuer;
    static String issuerUri;
    static RSAKey key;
    static RunningServer server;
    static TrainyardClient admin;

    @BeforeAll
    static void start() throws Exception {
        key = new RSAKeyGenerator(2048).keyID("test-key").generate();
        issuer = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        issuerUri = "http://127.0.0.1:" + issuer.getAddress().getPort() + "/realm";
        serve("/realm/.well-known/openid-configuration", "{\"issuer\": \"" + issuerUri + "\", \"jwks_uri\": \"" + issuerUri + "/jwks\"}");
        serve("/realm/jwks", new JWKSet(key.toPublicJWK()).toString());
        issuer.start();
        server = RunningServer.start(TestDatabase.newDatabaseUrl(), dataDir, "oidc-node",
                "--spring.security.oauth2.resourceserver.jwt.issuer-uri=" + issuerUri,
                "--trainyard.security.oidc.user-claim=email",
                "--trainyard.security.oidc.group-roles.ml-ranking=ranking:editor",
                "--trainyard.security.oidc.admin-groups=platform");
        admin = server.api();
        assertThat(admin.projects().createProjectWithHttpInfo(new NewProject().name("ranking")).getStatusCode()).isEqualTo(201);
    }

    @AfterAll
    static void stop() {
        server.close();
        issuer.stop(0);
    }

    @Test
    void aJwtOfTheIssuerActsAsItsUserWithTheRolesItsGroupsGrant() throws Exception {
        TrainyardClient eve = admin.withToken(jwt(key, issuerUri, "eve@example.com", List.of("ml-ranking"), Instant.now().plusSeconds(300)));

        ApiResponse<Job> submitted = eve.jobs().submitJobWithHttpInfo(JobBodies.job("from_oidc", "print('hi')").project("ranking"), null);

        assertThat(submitted.getStatusCode()).isEqualTo(201);
        assertThat(submitted.getData().getSubmittedBy()).isEqualTo("oidc:eve@example.com");
        assertThat(eve.users().getCurrentUser().getRoles().get("ranking")).isEqualTo(CurrentUser.InnerEnum.EDITOR);
        // What eve may not do, asked over raw HTTP.
        assertThat(eve.raw().post("/jobs", JobBodies.asJson(JobBodies.job("elsewhere", "print('hi')"))).status()).isEqualTo(404);
        assertThat(eve.raw().get("/audit").status()).isEqualTo(403);
        // The server's own tokens keep working beside JWTs.
        assertThat(admin.jobs().listJobs(null, null, null, null, null, null).getJobs()).extracting(Job::getProject).contains("ranking");
    }

    @Test
    void anAdminGroupMakesAGlobalAdmin() throws Exception {
        TrainyardClient platform = admin.withToken(jwt(key, issuerUri, "ops@example.com", List.of("platform"), Instant.now().plusSeconds(300)));

        assertThat(platform.audit().listAuditEventsWithHttpInfo(null, null, null, null, null, null, null, null).getStatusCode())
                .isEqualTo(200);
    }

    @Test
    void aJwtNotSignedByTheIssuerExpiredOrOfAnotherIssuerIsRefused() throws Exception {
        RSAKey stranger = new RSAKeyGenerator(2048).keyID("test-key").generate();
        for (String token : List.of(
                jwt(stranger, issuerUri, "mallory@example.com", List.of("platform"), Instant.now().plusSeconds(300)),
                jwt(key, issuerUri, "eve@example.com", List.of("ml-ranking"), Instant.now().minusSeconds(600)),
                jwt(key, "http://127.0.0.1:1/other", "eve@example.com", List.of("ml-ranking"), Instant.now().plusSeconds(300)))) {
            assertThat(admin.raw().withToken(token).get("/jobs").status()).isEqualTo(401);
        }
    }

    private static String jwt(RSAKey signer, String iss, String email, List<String> groups, Instant expiresAt) throws JOSEException {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(signer.getKeyID()).build(),
                new JWTClaimsSet.Builder().issuer(iss).subject("subject-of-" + email).claim("email", email)
                        .claim("groups", groups).issueTime(new Date()).expirationTime(Date.from(expiresAt)).build());
        jwt.sign(new RSASSASigner(signer));
        return jwt.serialize();
    }

    private static void serve(String path, String json) {
        issuer.createContext(path, exchange -> {
            byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, bytes.length);
            try (var out = exchange.getResponseBody()) {
                out.write(bytes);
            } catch (IOException e) {
                // the client went away
            }
        });
    }
}

package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.trainyard.testing.RawHttpClient;
import io.trainyard.testing.ServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/**
 * The public API's contract is the committed {@code api/openapi.yaml}: the clients are generated from it, so a
 * change to what the server serves must show up there (and in review). Run {@code scripts/update-openapi.sh}
 * after changing the API.
 */
class ApiDocumentTest {

    @RegisterExtension
    static final ServerExtension server = new ServerExtension("api-document-node");

    @Test
    void theServedDocumentIsTheCommittedOne() throws IOException {
        RawHttpClient.Response served = anonymous().get("/v3/api-docs.yaml");
        assertThat(served.status()).isEqualTo(200);
        String committed = Files.readString(Path.of("openapi.yaml"));
        assertThat(served.raw().body())
                .as("the served OpenAPI document differs from api/openapi.yaml: run scripts/update-openapi.sh and commit it")
                .isEqualTo(committed);
    }

    @Test
    void theAgentProtocolIsADocumentOfItsOwn() {
        JsonNode publicPaths = anonymous().get("/v3/api-docs").body().get("paths");
        JsonNode agentPaths = anonymous().get("/v3/api-docs/agent-protocol").body().get("paths");
        assertThat(publicPaths.has("/agents")).isTrue();
        assertThat(publicPaths.has("/agents/{agentId}/heartbeat")).isFalse();
        assertThat(agentPaths.has("/agents/{agentId}/heartbeat")).isTrue();
        assertThat(agentPaths.has("/agents/{agentId}/runs/{jobId}/{attempt}/logs")).isTrue();
        assertThat(agentPaths.has("/jobs")).isFalse();
    }

    /** The documents are public: a client generator needs no token (and reads them as plain HTTP). */
    private static RawHttpClient anonymous() {
        return server.api().raw().withToken(null);
    }
}

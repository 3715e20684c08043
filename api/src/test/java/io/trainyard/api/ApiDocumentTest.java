package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;

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

    /**
     * A generated client knows what the server refuses with 422 (and the contract test sends it): the submission's
     * bounds, GiGL's job-name rule, and each config given once, inline or by URI.
     */
    @Test
    void theSubmissionStatesTheLimitsTheServerEnforces() {
        JsonNode submission = anonymous().get("/v3/api-docs").body().get("components").get("schemas").get("JobSubmission");
        JsonNode fields = submission.get("properties");

        assertThat(fields.get("gpus").get("minimum").asInt()).isEqualTo(1);
        assertThat(fields.get("gpus").get("maximum").asInt()).isEqualTo(64);
        assertThat(fields.get("nodes").get("maximum").asInt()).isEqualTo(256);
        assertThat(fields.get("timeoutSeconds").get("minimum").asInt()).isEqualTo(1);
        assertThat(fields.get("timeoutSeconds").get("maximum").asLong()).isEqualTo(2_592_000);
        assertThat(fields.get("priority").get("minimum").asInt()).isEqualTo(-1000);
        assertThat(fields.get("jobName").get("maxLength").asInt()).isEqualTo(51);
        assertThat(fields.get("jobName").get("pattern").asString()).startsWith("^[a-z]").endsWith("$");
        assertThat(submission.get("oneOf").findValues("required").stream()
                .map(required -> required.valueStream().map(JsonNode::asString).collect(Collectors.toSet())))
                .containsExactlyInAnyOrder(Set.of("taskConfig", "resourceConfig"), Set.of("taskConfig", "resourceConfigUri"),
                        Set.of("taskConfigUri", "resourceConfig"), Set.of("taskConfigUri", "resourceConfigUri"));
    }

    /** The documents are public: a client generator needs no token (and reads them as plain HTTP). */
    private static RawHttpClient anonymous() {
        return server.api().raw().withToken(null);
    }
}

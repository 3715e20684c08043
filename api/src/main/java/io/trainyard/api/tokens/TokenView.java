package io.trainyard.api.tokens;

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;
import io.trainyard.security.tokens.ApiTokens;
import org.jspecify.annotations.Nullable;

/**
 * A token as the API shows it: never its secret, except once, in the answer that created it.
 *
 * @param owner the user it acts for (null for an agent token)
 * @param agentId the agent it identifies (null for a user token)
 * @param token the secret, only in the answer of its creation: store it, it cannot be shown again
 */
@Schema(name = "Token")
public record TokenView(UUID id, String name, @Nullable String owner, @Nullable String agentId, String createdBy,
        Instant createdAt, @Nullable Instant expiresAt, @Nullable Instant lastUsedAt, @Nullable Instant revokedAt,
        @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String token) {

    public static TokenView of(ApiTokens.Token token) {
        return of(token, null);
    }

    public static TokenView of(ApiTokens.Token token, @Nullable String secret) {
        return new TokenView(token.id(), token.name(), token.owner(), token.agentId(), token.createdBy(), token.createdAt(),
                token.expiresAt(), token.lastUsedAt(), token.revokedAt(), secret);
    }
}

package io.trainyard.api.agents;

import java.net.URI;
import java.util.List;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.trainyard.api.tokens.NewToken;
import io.trainyard.api.tokens.TokenLifetimes;
import io.trainyard.api.tokens.TokenView;
import io.trainyard.security.Callers;
import io.trainyard.security.audit.Audited;
import io.trainyard.security.tokens.ApiTokens;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Agent tokens (global admins): each identifies one agent id and may only speak the agent protocol for it.
 * Give one to each host's agent (TRAINYARD_AGENT_TOKEN); revoke it with {@code DELETE /tokens/{id}}.
 */
@RestController
@RequestMapping("/agent-tokens")
@Tag(name = "agent tokens", description = "Tokens of agents, one agent id each")
public class AgentTokenController {

    private final ApiTokens tokens;
    private final TokenLifetimes lifetimes;

    public AgentTokenController(ApiTokens tokens, TokenLifetimes lifetimes) {
        this.tokens = tokens;
        this.lifetimes = lifetimes;
    }

    /** @param expiresInDays its lifetime (default and longest: the server's token lifetimes) */
    public record NewAgentToken(
            @NotNull @Pattern(regexp = "^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$",
                    message = "must be 1-128 letters, digits, '.', '_' or '-', starting with a letter or digit")
            String agentId,
            @Size(max = 64) @Pattern(regexp = NewToken.NAME, message = "must not contain control characters") @Nullable String name,
            @Min(1) @Max(3650) @Nullable Integer expiresInDays) {
    }

    @PostMapping
    @Audited("agent-token.create")
    @Operation(operationId = "createAgentToken", summary = "Create a token for an agent id; its secret is in this answer only")
    @ApiResponse(responseCode = "201", description = "The new token, with its secret",
            headers = @Header(name = HttpHeaders.LOCATION, description = "The token's URL, /tokens/{id}",
                    schema = @Schema(type = "string", format = "uri-reference")))
    public ResponseEntity<TokenView> create(@RequestBody @Valid NewAgentToken token) {
        String name = token.name() == null || token.name().isBlank() ? "agent " + token.agentId() : token.name();
        ApiTokens.Created created = tokens.createForAgent(token.agentId(), name,
                lifetimes.of(new NewToken(name, token.expiresInDays())), Callers.current().name());
        return ResponseEntity.created(URI.create("/tokens/" + created.token().id()))
                .body(TokenView.of(created.token(), created.secret()));
    }

    @GetMapping
    @Operation(operationId = "listAgentTokens", summary = "Every agent token, newest first (never their secrets)")
    public List<TokenView> list() {
        return tokens.ofAgents().stream().map(TokenView::of).toList();
    }
}

package io.trainyard.api.tokens;

import java.net.URI;
import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.trainyard.security.Caller;
import io.trainyard.security.Callers;
import io.trainyard.security.audit.Audited;
import io.trainyard.security.tokens.ApiTokens;
import io.trainyard.security.tokens.TokenAuthentication;
import io.trainyard.validation.ConflictException;
import io.trainyard.validation.NotFoundException;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A user's own API tokens: created (the secret is shown once), listed, revoked. Global admins see and revoke
 * everyone's, agent tokens included. A token someone else owns answers 404 to anyone else.
 */
@RestController
@RequestMapping("/tokens")
@Tag(name = "tokens", description = "API tokens: created, listed, revoked")
public class TokenController {

    private static final String OWNER = "^(\\*|[A-Za-z0-9][A-Za-z0-9._@+-]{0,127})$";

    private final ApiTokens tokens;
    private final TokenLifetimes lifetimes;
    private final TokenAuthentication authentication;

    public TokenController(ApiTokens tokens, TokenLifetimes lifetimes, TokenAuthentication authentication) {
        this.tokens = tokens;
        this.lifetimes = lifetimes;
        this.authentication = authentication;
    }

    @PostMapping
    @Audited("token.create")
    @Operation(operationId = "createToken", summary = "Create a token of your own; its secret is in this answer only")
    @ApiResponse(responseCode = "201", description = "The new token, with its secret",
            headers = @Header(name = HttpHeaders.LOCATION, description = "Its URL, /tokens/{id}",
                    schema = @Schema(type = "string", format = "uri-reference")))
    public ResponseEntity<TokenView> create(@RequestBody @Valid NewToken token) {
        Caller.User user = Callers.currentUser();
        ApiTokens.Created created = tokens.createForUser(user.name(), token.name(), lifetimes.of(token), user.name());
        return ResponseEntity.created(URI.create("/tokens/" + created.token().id()))
                .body(TokenView.of(created.token(), created.secret()));
    }

    @GetMapping
    @Operation(operationId = "listTokens",
            summary = "Your tokens, newest first; a global admin may ask for another user's, or every user's with owner=*")
    public List<TokenView> list(@Parameter(description = "Whose tokens (global admins only); * for everyone's")
            @RequestParam(required = false) @Pattern(regexp = OWNER, message = "must be a user name or *")
            @Nullable String owner) {
        Caller.User user = Callers.currentUser();
        if (owner != null && !owner.equals(user.name()) && !user.globalAdmin()) {
            throw new AccessDeniedException("only global admins see other users' tokens");
        }
        String whose = owner == null ? user.name() : owner.equals("*") ? null : owner;
        return tokens.ofUsers(whose).stream().map(TokenView::of).toList();
    }

    @GetMapping("/{id}")
    @Operation(operationId = "getToken", summary = "A token of yours (any token, for global admins), never its secret")
    public TokenView get(@PathVariable UUID id) {
        return TokenView.of(visible(id));
    }

    @DeleteMapping("/{id}")
    @Audited("token.revoke")
    @Operation(operationId = "revokeToken", summary = "Revoke a token: it is refused from now on (within a second on every replica)")
    @ApiResponse(responseCode = "204", description = "Revoked")
    @ApiResponse(responseCode = "409", description = "The token was revoked already")
    public ResponseEntity<Void> revoke(@PathVariable UUID id) {
        ApiTokens.Token token = visible(id);
        if (!tokens.revoke(token.id())) {
            throw new ConflictException("token " + id + " was revoked already");
        }
        authentication.forgetCached();
        return ResponseEntity.noContent().build();
    }

    /** A token the caller owns, or any token for a global admin; else 404, so ids of others' tokens reveal nothing. */
    private ApiTokens.Token visible(UUID id) {
        Caller.User user = Callers.currentUser();
        return tokens.find(id)
                .filter(found -> user.globalAdmin() || user.name().equals(found.owner()))
                .orElseThrow(() -> new NotFoundException("No such token", "no token " + id + " of yours"));
    }
}

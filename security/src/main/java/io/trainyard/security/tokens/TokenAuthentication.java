package io.trainyard.security.tokens;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.trainyard.database.DatabaseFailures;
import io.trainyard.security.AccessCache;
import io.trainyard.security.Caller;
import io.trainyard.security.CallerAuthentication;
import io.trainyard.security.Callers;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.server.resource.InvalidBearerTokenException;
import org.springframework.security.oauth2.server.resource.authentication.BearerTokenAuthenticationToken;
import org.springframework.stereotype.Component;

/**
 * Authenticates the server's own bearer tokens, users' and agents'. The secret's hash is looked up and the
 * answer cached for {@value AccessCache#LIFETIME_MILLIS} ms ({@link AccessCache}), so a busy client costs no database round trip per request while
 * a revoked or expired token is refused within a second (at once on the replica that revoked it). The time a
 * token was last used is written at most once a minute. While the database cannot be reached, a token this
 * replica accepted in the last {@value #OUTAGE_GRACE_MINUTES} minutes is still accepted (nobody can revoke it
 * meanwhile), so metrics can be scraped and every other request gets its 503 rather than a 401.
 */
@Component
public class TokenAuthentication implements AuthenticationProvider {

    static final long OUTAGE_GRACE_MINUTES = 5;
    private static final Duration LAST_USED_PRECISION = Duration.ofMinutes(1);

    private final ApiTokens tokens;
    private final Callers callers;
    private final Clock clock;
    private final Cache<String, Optional<ApiTokens.Token>> byHash = AccessCache.holding(100_000);
    private final Cache<String, Accepted> lastAccepted = Caffeine.newBuilder()
            .expireAfterWrite(Duration.ofMinutes(OUTAGE_GRACE_MINUTES)).maximumSize(100_000).build();
    private final Map<UUID, Instant> lastMarkedUsed = new ConcurrentHashMap<>();

    private record Accepted(ApiTokens.Token token, Caller caller) {
    }

    public TokenAuthentication(ApiTokens tokens, Callers callers, Clock clock) {
        this.tokens = tokens;
        this.callers = callers;
        this.clock = clock;
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        return authenticateHash(TokenSecret.hash(((BearerTokenAuthenticationToken) authentication).getToken()));
    }

    /**
     * A token known by its secret's hash, as a dashboard session keeps it: the session's store (PostgreSQL) then
     * holds nothing that works as a bearer token.
     */
    public CallerAuthentication authenticateHash(String hash) {
        Instant now = clock.instant();
        try {
            ApiTokens.Token token = byHash.get(hash, tokens::findByHash)
                    .filter(found -> found.isValidAt(now))
                    .orElseThrow(() -> new InvalidBearerTokenException("the token is unknown, expired or revoked"));
            Caller caller = token.agentId() != null ? new Caller.Agent(token.agentId(), token.id())
                    : callers.user(token.owner(), token.id())
                            .orElseThrow(() -> new InvalidBearerTokenException("the token's user no longer exists"));
            lastAccepted.put(hash, new Accepted(token, caller));
            markUsed(token.id(), now);
            return new CallerAuthentication(caller, () -> authenticateHash(hash).getPrincipal());
        } catch (RuntimeException e) {
            Accepted known = DatabaseFailures.isUnreachable(e) ? lastAccepted.getIfPresent(hash) : null;
            if (known == null || !known.token().isValidAt(now)) {
                throw e;
            }
            return new CallerAuthentication(known.caller(), () -> authenticateHash(hash).getPrincipal());
        }
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return BearerTokenAuthenticationToken.class.isAssignableFrom(authentication);
    }

    /** A token revoked here is refused here at once, not only after the cache forgets it. */
    public void forgetCached() {
        byHash.invalidateAll();
        lastAccepted.invalidateAll();
    }

    private void markUsed(UUID id, Instant now) {
        Instant last = lastMarkedUsed.get(id);
        if (last == null || Duration.between(last, now).compareTo(LAST_USED_PRECISION) > 0) {
            lastMarkedUsed.put(id, now);
            tokens.markUsed(id, now);
        }
    }
}

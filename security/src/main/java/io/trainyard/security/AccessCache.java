package io.trainyard.security;

import java.time.Duration;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * A cache of what the database says about access, read on every request: a token, a user's memberships, a project.
 * Each answer is kept for at most {@value #LIFETIME_MILLIS} ms, one bound for all of them: a busy client costs no
 * database round trip per request, and a change made on another replica (a revoked token, a new role, a new project)
 * takes effect within a second; the replica that made it forgets its own answer at once.
 */
public final class AccessCache {

    public static final long LIFETIME_MILLIS = 500;

    private AccessCache() {
    }

    /** An empty cache of at most {@code maximumSize} answers. */
    public static <K, V> Cache<K, V> holding(long maximumSize) {
        return Caffeine.newBuilder().expireAfterWrite(Duration.ofMillis(LIFETIME_MILLIS)).maximumSize(maximumSize).build();
    }
}

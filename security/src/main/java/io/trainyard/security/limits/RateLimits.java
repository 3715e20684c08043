package io.trainyard.security.limits;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.trainyard.security.Caller;
import io.trainyard.security.Callers;
import io.trainyard.security.SecurityProperties;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Per-token limits on what costs the server most ({@link RateLimited} handlers): a token bucket each for
 * submissions and for opening live streams, and a cap on the streams one token holds open at once. A caller
 * over a limit gets 429 with Retry-After. The buckets live in this replica's memory: each replica enforces the
 * limits on the requests it serves.
 */
@Component
public class RateLimits implements HandlerInterceptor {

    private static final String HELD_STREAM = RateLimits.class.getName() + ".stream";

    private final SecurityProperties.RateLimits limits;
    private final Cache<String, Bucket> submissions = Caffeine.newBuilder().expireAfterAccess(Duration.ofMinutes(10)).build();
    private final Cache<String, Bucket> streams = Caffeine.newBuilder().expireAfterAccess(Duration.ofMinutes(10)).build();
    private final ConcurrentHashMap<String, AtomicInteger> openStreams = new ConcurrentHashMap<>();

    public RateLimits(SecurityProperties properties) {
        this.limits = properties.rateLimits();
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (!(handler instanceof HandlerMethod method) || !method.hasMethodAnnotation(RateLimited.class)) {
            return true;
        }
        String key = key(Callers.current());
        switch (method.getMethodAnnotation(RateLimited.class).value()) {
            case SUBMISSION -> take(submissions.get(key, k -> Bucket.builder()
                    .addLimit(Bandwidth.builder().capacity(2L * limits.submissionsPerSecond())
                            .refillGreedy(limits.submissionsPerSecond(), Duration.ofSeconds(1)).build())
                    .build()), "submissions", limits.submissionsPerSecond() + " per second");
            case STREAM -> {
                take(streams.get(key, k -> Bucket.builder()
                        .addLimit(Bandwidth.builder().capacity(limits.streamsPerMinute())
                                .refillGreedy(limits.streamsPerMinute(), Duration.ofMinutes(1)).build())
                        .build()), "new live streams", limits.streamsPerMinute() + " per minute");
                AtomicInteger open = openStreams.computeIfAbsent(key, k -> new AtomicInteger());
                if (open.incrementAndGet() > limits.concurrentStreams()) {
                    open.decrementAndGet();
                    throw new TooManyRequestsException("this token already holds " + limits.concurrentStreams()
                            + " live streams open, the most it may; close one", 5);
                }
                request.setAttribute(HELD_STREAM, key);
            }
        }
        return true;
    }

    @Override
    public void afterCompletion(HttpServletRequest request, HttpServletResponse response, Object handler, Exception ex) {
        if (request.getAttribute(HELD_STREAM) instanceof String key) {
            openStreams.get(key).decrementAndGet();
        }
    }

    private static void take(Bucket bucket, String what, String limit) {
        ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
        if (!probe.isConsumed()) {
            throw TooManyRequestsException.retryAfterNanos("too many " + what + " with this token: the limit is " + limit,
                    probe.getNanosToWaitForRefill());
        }
    }

    /** One budget per token (per user for OIDC tokens, which have no id here). */
    private static String key(Caller caller) {
        return switch (caller) {
            case Caller.User user -> user.tokenId() != null ? user.tokenId().toString() : user.name();
            case Caller.Agent agent -> agent.tokenId().toString();
        };
    }
}

package io.trainyard.security;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.trainyard.security.audit.AuditLog;
import io.trainyard.security.limits.AuthenticationThrottle;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Requests refused for want of a valid token: counted ({@code trainyard.security.authentication.failures}, by
 * reason), logged at most once a minute with how many there were (a scan must not flood the log), and, for
 * an agent that tries to register, audited as a rejected registration (once a minute per address and agent). A
 * refused token (not a missing one, which guesses nothing) counts against its address's budget of failures
 * ({@link AuthenticationThrottle}).
 */
@Component
public class FailedAuthentications {

    private static final Logger log = LoggerFactory.getLogger(FailedAuthentications.class);
    private static final long LOG_INTERVAL_NANOS = Duration.ofMinutes(1).toNanos();
    public static final String REFUSED = "refused";
    private static final Pattern AGENT_REGISTRATION = Pattern.compile("/agents/([^/]+)");

    private final MeterRegistry registry;
    private final AuditLog auditLog;
    private final AuthenticationThrottle throttle;
    private final AtomicLong sinceLogged = new AtomicLong();
    private final AtomicLong lastLoggedAt = new AtomicLong(System.nanoTime() - LOG_INTERVAL_NANOS);
    private final Cache<String, Boolean> auditedRecently = Caffeine.newBuilder().expireAfterWrite(Duration.ofMinutes(1))
            .maximumSize(10_000).build();

    public FailedAuthentications(MeterRegistry registry, AuditLog auditLog, AuthenticationThrottle throttle) {
        this.registry = registry;
        this.auditLog = auditLog;
        this.throttle = throttle;
    }

    /** @param kind {@value #REFUSED} for a token given and refused, {@code missing} for none */
    public void record(HttpServletRequest request, String kind, String reason) {
        if (REFUSED.equals(kind)) {
            throttle.recordFailure(request);
        }
        Counter.builder("trainyard.security.authentication.failures").description("Requests refused for want of a valid token")
                .tag("reason", kind).register(registry).increment();
        long count = sinceLogged.incrementAndGet();
        long last = lastLoggedAt.get();
        long now = System.nanoTime();
        if (now - last >= LOG_INTERVAL_NANOS && lastLoggedAt.compareAndSet(last, now)) {
            sinceLogged.addAndGet(-count);
            log.warn("{} request(s) refused for want of a valid token in the last minute or so; the latest: {} {} from {}: {}",
                    count, request.getMethod(), request.getRequestURI(), request.getRemoteAddr(), reason);
        }
        Matcher registration = AGENT_REGISTRATION.matcher(request.getRequestURI());
        if ("PUT".equals(request.getMethod()) && registration.matches()) {
            String key = request.getRemoteAddr() + " " + registration.group(1);
            if (auditedRecently.asMap().putIfAbsent(key, Boolean.TRUE) == null) {
                auditLog.record("anonymous", "agent.register", request.getRequestURI(), request.getRemoteAddr(),
                        AuditLog.Outcome.DENIED, "HTTP 401: " + reason);
            }
        }
    }
}

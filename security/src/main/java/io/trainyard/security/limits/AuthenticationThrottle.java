package io.trainyard.security.limits;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Arrays;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.trainyard.problem.ProblemJson;
import io.trainyard.security.SecurityProperties;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Slows down token guessing: each client address may fail to authenticate (a refused token, a failed sign-in)
 * {@code failed-authentications-per-minute} times a minute; past that, every attempt of that address to
 * authenticate (a request with an {@code Authorization} header, a sign-in) is answered 429 with Retry-After until
 * its budget refills, a correct token included, since answering a correct token would tell a guesser it had found
 * one. Requests without credentials (the dashboard's files, health) and requests of an open session are not
 * attempts and pass. The budgets live in this replica's memory, at most {@value #MAX_ADDRESSES} addresses (the
 * least used are forgotten first), so an attacker with many addresses cannot grow it without bound. An IPv6
 * client is counted by its /64, which one host can fill with addresses of its own.
 */
@Component
public class AuthenticationThrottle {

    private static final int MAX_ADDRESSES = 100_000;

    private final int failuresPerMinute;
    private final Counter throttled;
    // A budget refills completely within a minute, so one unused for a minute can be forgotten.
    private final Cache<String, Bucket> failures = Caffeine.newBuilder().expireAfterAccess(Duration.ofMinutes(1))
            .maximumSize(MAX_ADDRESSES).build();

    public AuthenticationThrottle(SecurityProperties properties, MeterRegistry registry) {
        this.failuresPerMinute = properties.rateLimits().failedAuthenticationsPerMinute();
        this.throttled = Counter.builder("trainyard.security.authentication.throttled")
                .description("Attempts to authenticate refused because their address failed too often (429)")
                .register(registry);
    }

    /** A token of this request's address was refused. */
    public void recordFailure(HttpServletRequest request) {
        failures.get(client(request), address -> Bucket.builder()
                .addLimit(Bandwidth.builder().capacity(failuresPerMinute)
                        .refillGreedy(failuresPerMinute, Duration.ofMinutes(1)).build())
                .build()).tryConsume(1);
    }

    /** The security filter: an attempt to authenticate from an address out of budget gets no further. */
    public void doFilter(ServletRequest servletRequest, ServletResponse servletResponse, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) servletRequest;
        Bucket budget = isAttempt(request) ? failures.getIfPresent(client(request)) : null;
        if (budget == null || budget.getAvailableTokens() > 0) {
            chain.doFilter(servletRequest, servletResponse);
            return;
        }
        throttled.increment();
        TooManyRequestsException refusal = TooManyRequestsException.retryAfterNanos(
                "too many failed authentications from this address: the limit is " + failuresPerMinute + " per minute",
                budget.estimateAbilityToConsume(1).getNanosToWaitForRefill());
        HttpServletResponse response = (HttpServletResponse) servletResponse;
        response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(refusal.retryAfterSeconds()));
        ProblemJson.write(request, response, HttpStatus.TOO_MANY_REQUESTS, "Too many requests", refusal.getMessage());
    }

    private static boolean isAttempt(HttpServletRequest request) {
        return request.getHeader(HttpHeaders.AUTHORIZATION) != null
                || ("POST".equals(request.getMethod()) && "/session".equals(request.getRequestURI()));
    }

    /** The address the request came from (the client's, behind a proxy trusted with forwarded headers). */
    private static String client(HttpServletRequest request) {
        String address = request.getRemoteAddr();
        if (address.indexOf(':') < 0) {
            return address;
        }
        try {
            // An IPv6 literal (getByName looks no name up for one): its /64.
            byte[] network = Arrays.copyOf(InetAddress.getByName(address).getAddress(), 8);
            return InetAddress.getByAddress(Arrays.copyOf(network, 16)).getHostAddress() + "/64";
        } catch (UnknownHostException e) {
            return address;
        }
    }
}

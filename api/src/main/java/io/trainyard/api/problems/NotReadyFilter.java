package io.trainyard.api.problems;

import java.io.IOException;

import io.trainyard.problem.ProblemJson;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Tomcat accepts connections before the server is ready: the web server starts before the dispatcher, the host's
 * agent and the other background loops, and before Spring Boot declares the application ready (its readiness
 * state). A request in that window answers 503 with {@code Retry-After} and a problem detail, never a
 * half-started server's answer; health too, so whoever waits for a healthy server waits until it is ready, but not
 * liveness, which says only that the process runs. (What the start itself waits for, the server's own agent
 * registering, calls the server in its process.) Once ready, the server answers until it stops: a stopping server's
 * agents and streams still finish their requests.
 * (Right after the database filter, which only turns failures of what runs after it into 503s.)
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
public class NotReadyFilter extends OncePerRequestFilter {

    private static final String LIVENESS = "/actuator/health/liveness";

    private final ApplicationAvailability availability;
    private volatile boolean ready;

    public NotReadyFilter(ApplicationAvailability availability) {
        this.availability = availability;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!ready && availability.getReadinessState() == ReadinessState.ACCEPTING_TRAFFIC) {
            ready = true;
        }
        if (ready || LIVENESS.equals(request.getRequestURI())) {
            chain.doFilter(request, response);
            return;
        }
        response.setHeader(HttpHeaders.RETRY_AFTER, Integer.toString(DatabaseUnavailableFilter.RETRY_AFTER_SECONDS));
        ProblemJson.write(request, response, HttpStatus.SERVICE_UNAVAILABLE, "Not ready",
                "the server is still starting; retry after " + DatabaseUnavailableFilter.RETRY_AFTER_SECONDS + " s");
    }
}

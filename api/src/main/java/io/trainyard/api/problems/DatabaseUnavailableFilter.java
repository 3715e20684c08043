package io.trainyard.api.problems;

import java.io.IOException;

import io.trainyard.database.DatabaseConnectivity;
import io.trainyard.database.DatabaseFailures;
import io.trainyard.problem.ProblemJson;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The first filter of every request: a request that failed because the database could not be reached (in the
 * token check before Spring MVC, or in a controller) answers 503 with {@code Retry-After}, a problem detail
 * clients and agents know to retry, instead of a 500. The failure also tells {@link DatabaseConnectivity}.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class DatabaseUnavailableFilter extends OncePerRequestFilter {

    /** Seconds a client should wait: a restarting PostgreSQL is usually back within a few. */
    static final int RETRY_AFTER_SECONDS = 2;

    private final DatabaseConnectivity database;

    public DatabaseUnavailableFilter(DatabaseConnectivity database) {
        this.database = database;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            chain.doFilter(request, response);
        } catch (ServletException | IOException | RuntimeException e) {
            if (!DatabaseFailures.isUnreachable(e) || response.isCommitted()) {
                throw e;
            }
            database.unreachable(e);
            response.reset();
            response.setHeader(HttpHeaders.RETRY_AFTER, Integer.toString(RETRY_AFTER_SECONDS));
            ProblemJson.write(request, response, HttpStatus.SERVICE_UNAVAILABLE, "Database unavailable",
                    "the server cannot reach its database; retry after " + RETRY_AFTER_SECONDS + " s");
        }
    }
}

package io.trainyard.api.problems;

import java.io.IOException;
import java.util.Locale;

import io.trainyard.problem.ProblemJson;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The API reads JSON only (multipart parsing is off), but a multipart Content-Type without its boundary is a
 * malformed header whatever the request (RFC 2046 makes the boundary required): it is answered 400 with a problem
 * detail rather than ignored.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
public class MultipartBoundaryFilter extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String type = request.getContentType();
        if (type != null) {
            String lower = type.strip().toLowerCase(Locale.ROOT);
            if (lower.startsWith("multipart/") && !lower.contains("boundary=")) {
                ProblemJson.write(request, response, HttpStatus.BAD_REQUEST, "Malformed multipart request",
                        "a multipart Content-Type needs its boundary parameter");
                return;
            }
        }
        chain.doFilter(request, response);
    }
}

package io.trainyard.api.problems;

import java.io.IOException;

import io.trainyard.problem.ProblemJson;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A query string Tomcat cannot parse (a parameter without a name, {@code ?=x}; a broken percent-encoding) is
 * answered 400 here, before anything else reads a parameter. Found later, Tomcat's exception would travel up
 * through Spring MVC and be logged at ERROR with its stack trace, once per bad request, for a client's mistake.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
public class QueryStringFilter extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getQueryString() != null) {
            try {
                // Tomcat parses the parameters once, on this first call, and keeps them for every later reader.
                request.getParameterMap();
            } catch (InvalidParameterException e) {
                ProblemJson.write(request, response, HttpStatus.BAD_REQUEST, "Malformed query string",
                        "a query parameter has no name, or its percent-encoding is broken");
                return;
            }
        }
        chain.doFilter(request, response);
    }
}

package io.trainyard.api.problems;

import java.io.IOException;

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
 * The server reads request bodies as they are sent: a body in a content coding (gzip, br, …) would be read as
 * broken JSON. It is refused with 415 and {@code Accept-Encoding: identity}, as RFC 9110 (15.5.16) asks.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
public class ContentEncodingFilter extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String encoding = request.getHeader(HttpHeaders.CONTENT_ENCODING);
        if (encoding != null && !encoding.isBlank() && !encoding.strip().equalsIgnoreCase("identity")) {
            response.setHeader(HttpHeaders.ACCEPT_ENCODING, "identity");
            ProblemJson.write(request, response, HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Unsupported content encoding",
                    "request bodies are read as sent: Content-Encoding '" + encoding + "' is not supported");
            return;
        }
        chain.doFilter(request, response);
    }
}

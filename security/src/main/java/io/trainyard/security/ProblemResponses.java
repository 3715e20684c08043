package io.trainyard.security;

import java.io.IOException;

import io.trainyard.problem.ProblemJson;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.server.resource.InvalidBearerTokenException;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.csrf.CsrfException;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.stereotype.Component;

/**
 * The answers of the security filters, which run before Spring MVC and its problem handling: RFC 9457 problem
 * details like every other error, 401 with {@code WWW-Authenticate: Bearer} for a missing or refused token, 403
 * for a caller that may not do this, 400 for a request the firewall rejects (an encoded slash, a control character
 * in the URL). Every 401 is counted and reported to {@link FailedAuthentications}.
 */
@Component
public class ProblemResponses implements AuthenticationEntryPoint, AccessDeniedHandler, RequestRejectedHandler {

    private final FailedAuthentications failures;

    public ProblemResponses(FailedAuthentications failures) {
        this.failures = failures;
    }

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException e)
            throws IOException {
        boolean refused = e instanceof InvalidBearerTokenException;
        String reason = refused ? e.getMessage() : "a bearer token is required (Authorization: Bearer <token>)";
        failures.record(request, refused ? FailedAuthentications.REFUSED : "missing", reason);
        response.setHeader(HttpHeaders.WWW_AUTHENTICATE, refused
                ? "Bearer realm=\"trainyard\", error=\"invalid_token\"" : "Bearer realm=\"trainyard\"");
        ProblemJson.write(request, response, HttpStatus.UNAUTHORIZED, "Authentication required", reason);
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException e) throws IOException {
        String detail = e instanceof CsrfException
                ? "a change made with the session cookie needs the XSRF-TOKEN cookie's value in the X-XSRF-TOKEN header"
                : "this token may not " + request.getMethod() + " " + request.getRequestURI();
        ProblemJson.write(request, response, HttpStatus.FORBIDDEN, "Forbidden", detail);
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, RequestRejectedException e) throws IOException {
        ProblemJson.write(request, response, HttpStatus.BAD_REQUEST, "Bad request", "the URL is not one this server accepts");
    }
}

package io.trainyard.security.session;

import java.io.IOException;

import io.trainyard.problem.ProblemJson;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.UriComponents;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * A change made with the session cookie, or a sign-in, must come from this server's own pages: its {@code Origin}
 * (or, when a browser sent none, its {@code Referer}) must be the server's own scheme, host and port as the
 * request reached it; anything else, neither header included, is refused with 403. Every browser sends
 * {@code Origin} with a POST, PUT or DELETE, so only a page of another origin is refused, even one that has
 * somehow got the CSRF token. Behind a TLS-terminating proxy the server sees its own origin only when it trusts the
 * proxy's forwarded headers ({@code server.forward-headers-strategy=native}).
 */
public class SameOriginCheck extends OncePerRequestFilter {

    private final RequestMatcher cookieChanges;

    /** @param cookieChanges the requests to check: those made with the session cookie that change something */
    public SameOriginCheck(RequestMatcher cookieChanges) {
        this.cookieChanges = cookieChanges;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!cookieChanges.matches(request) || isOwn(source(request), request)) {
            chain.doFilter(request, response);
            return;
        }
        ProblemJson.write(request, response, HttpStatus.FORBIDDEN, "Forbidden",
                "a change made with the session cookie must come from this server's own pages, "
                        + ownOrigin(request) + ": the request's Origin (or Referer) is another");
    }

    private static String source(HttpServletRequest request) {
        String origin = request.getHeader(HttpHeaders.ORIGIN);
        return origin != null ? origin : request.getHeader(HttpHeaders.REFERER);
    }

    private static boolean isOwn(String url, HttpServletRequest request) {
        if (url == null) {
            return false;
        }
        try {
            UriComponents source = UriComponentsBuilder.fromUriString(url).build();
            return request.getScheme().equalsIgnoreCase(source.getScheme())
                    && request.getServerName().equalsIgnoreCase(source.getHost())
                    && port(request.getScheme(), request.getServerPort()) == port(source.getScheme(), source.getPort());
        } catch (IllegalArgumentException e) {
            return false; // not a URL ("null", from a sandboxed page)
        }
    }

    /** A URL names no port when it is the scheme's default. */
    private static int port(String scheme, int port) {
        if (port != -1) {
            return port;
        }
        return "https".equalsIgnoreCase(scheme) ? 443 : 80;
    }

    private static String ownOrigin(HttpServletRequest request) {
        return request.getScheme() + "://" + request.getServerName() + ":" + request.getServerPort();
    }
}

package io.trainyard.security.session;

import io.trainyard.security.tokens.TokenAuthentication;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextImpl;
import org.springframework.security.oauth2.server.resource.authentication.BearerTokenAuthenticationToken;
import org.springframework.security.web.context.HttpRequestResponseHolder;
import org.springframework.security.web.context.SecurityContextRepository;
import org.springframework.stereotype.Component;

/**
 * The dashboard's sessions. {@code POST /session} keeps the user's API token in the server-side HTTP session;
 * every request that comes with the session cookie is authenticated again through that token, so revoking the
 * token, or changing the user's roles, takes effect on open sessions as on bearer requests. Nothing is saved
 * from a request's security context: only {@link #signIn} starts a session.
 */
@Component
public class SessionTokens implements SecurityContextRepository {

    private static final String TOKEN = "trainyard.token";

    private final TokenAuthentication tokens;

    public SessionTokens(TokenAuthentication tokens) {
        this.tokens = tokens;
    }

    /** Starts a new session (a new id, so a session id planted before sign-in is worthless) for this token. */
    public void signIn(HttpServletRequest request, String token) {
        signOut(request);
        request.getSession(true).setAttribute(TOKEN, token);
    }

    public void signOut(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        if (session != null) {
            session.invalidate();
        }
    }

    /** Called lazily, when something asks who the caller is (after any bearer token had its say). */
    @Override
    public SecurityContext loadContext(HttpRequestResponseHolder holder) {
        HttpSession session = holder.getRequest().getSession(false);
        Object token = session == null ? null : session.getAttribute(TOKEN);
        if (!(token instanceof String secret)) {
            return SecurityContextHolder.createEmptyContext();
        }
        try {
            return new SecurityContextImpl(tokens.authenticate(new BearerTokenAuthenticationToken(secret)));
        } catch (AuthenticationException e) {
            // Revoked or expired since sign-in: the session is over.
            session.invalidate();
            return SecurityContextHolder.createEmptyContext();
        }
    }

    @Override
    public void saveContext(SecurityContext context, HttpServletRequest request, HttpServletResponse response) {
        // Sessions start only through signIn.
    }

    @Override
    public boolean containsContext(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        return session != null && session.getAttribute(TOKEN) != null;
    }
}

package io.trainyard.security.session;

import io.trainyard.security.CallerAuthentication;
import io.trainyard.security.oidc.JwtCallers;
import io.trainyard.security.sso.SsoIdentity;
import io.trainyard.security.tokens.TokenAuthentication;
import io.trainyard.security.tokens.TokenSecret;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import org.springframework.security.authentication.CredentialsExpiredException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextImpl;
import org.springframework.security.web.context.HttpRequestResponseHolder;
import org.springframework.security.web.context.SecurityContextRepository;
import org.springframework.security.web.csrf.CsrfTokenRepository;
import org.springframework.stereotype.Component;

/**
 * The dashboard's sessions, kept in PostgreSQL by Spring Session (so that every replica serves them, and a restart
 * signs nobody out). {@code POST /session} keeps the hash of the user's API token in the server-side HTTP session;
 * every request that comes with the session cookie is authenticated again through that token, so revoking the
 * token, or changing the user's roles, takes effect on open sessions as on bearer requests. A single sign-on
 * ({@link io.trainyard.security.sso.SsoLogin}) keeps the OIDC identity instead, a user again on each request until
 * its ID token expires. Nothing is saved
 * from a request's security context: only {@link #signIn} starts a session. Signing in or out also renews the CSRF
 * token of the {@code XSRF-TOKEN} cookie, as it would a session id: a token another page planted or read before
 * sign-in (a sibling subdomain can set cookies for this host) is worthless after it.
 */
@Component
public class SessionTokens implements SecurityContextRepository {

    /** The token's hash, not the token: the sessions are rows in PostgreSQL. */
    private static final String TOKEN_HASH = "trainyard.token-hash";
    private static final String SSO_IDENTITY = "trainyard.sso";

    private final TokenAuthentication tokens;
    private final JwtCallers oidcUsers;
    private final CsrfTokenRepository csrfTokens;

    public SessionTokens(TokenAuthentication tokens, JwtCallers oidcUsers, CsrfTokenRepository csrfTokens) {
        this.tokens = tokens;
        this.oidcUsers = oidcUsers;
        this.csrfTokens = csrfTokens;
    }

    /** Starts a new session (a new id, so a session id planted before sign-in is worthless) for this token. */
    public void signIn(HttpServletRequest request, HttpServletResponse response, String token) {
        signOut(request, response);
        request.getSession(true).setAttribute(TOKEN_HASH, TokenSecret.hash(token));
    }

    /** Starts a new session, as {@link #signIn(HttpServletRequest, HttpServletResponse, String)}, for an OIDC sign-on. */
    public void signIn(HttpServletRequest request, HttpServletResponse response, SsoIdentity identity) {
        signOut(request, response);
        request.getSession(true).setAttribute(SSO_IDENTITY, identity);
    }

    public void signOut(HttpServletRequest request, HttpServletResponse response) {
        HttpSession session = request.getSession(false);
        if (session != null) {
            session.invalidate();
        }
        csrfTokens.saveToken(csrfTokens.generateToken(request), request, response);
    }

    /** Called lazily, when something asks who the caller is (after any bearer token had its say). */
    @Override
    public SecurityContext loadContext(HttpRequestResponseHolder holder) {
        HttpSession session = holder.getRequest().getSession(false);
        if (session != null && session.getAttribute(SSO_IDENTITY) instanceof SsoIdentity identity) {
            return signedOn(session, identity);
        }
        Object token = session == null ? null : session.getAttribute(TOKEN_HASH);
        if (!(token instanceof String hash)) {
            return SecurityContextHolder.createEmptyContext();
        }
        try {
            return new SecurityContextImpl(tokens.authenticateHash(hash));
        } catch (AuthenticationException e) {
            // Revoked or expired since sign-in: the session is over.
            session.invalidate();
            return SecurityContextHolder.createEmptyContext();
        }
    }

    /** The user of an OIDC sign-on, with the roles its groups grant now; until its ID token expires. */
    private SecurityContext signedOn(HttpSession session, SsoIdentity identity) {
        if (identity.expired()) {
            session.invalidate();
            return SecurityContextHolder.createEmptyContext();
        }
        return new SecurityContextImpl(new CallerAuthentication(oidcUsers.user(identity.name(), identity.groups()), () -> {
            if (identity.expired()) {
                throw new CredentialsExpiredException("the single sign-on has expired; sign in again");
            }
            return oidcUsers.user(identity.name(), identity.groups());
        }));
    }

    @Override
    public void saveContext(SecurityContext context, HttpServletRequest request, HttpServletResponse response) {
        // Sessions start only through signIn.
    }

    @Override
    public boolean containsContext(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        return session != null && (session.getAttribute(TOKEN_HASH) != null || session.getAttribute(SSO_IDENTITY) != null);
    }
}

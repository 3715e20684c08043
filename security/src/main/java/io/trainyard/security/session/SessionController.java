package io.trainyard.security.session;

import java.util.Map;

import io.swagger.v3.oas.annotations.Hidden;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.trainyard.security.Caller;
import io.trainyard.security.FailedAuthentications;
import io.trainyard.security.Role;
import io.trainyard.security.SecurityProperties;
import io.trainyard.security.sso.SsoLogin;
import io.trainyard.security.tokens.TokenAuthentication;
import io.trainyard.validation.InvalidRequestException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.server.resource.authentication.BearerTokenAuthenticationToken;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The dashboard signs in here: it trades a user's API token for an HttpOnly, SameSite=Strict session cookie, so
 * the token never has to be kept where page scripts can read it. Requests made with the cookie need the CSRF
 * token of the {@code XSRF-TOKEN} cookie echoed in an {@code X-XSRF-TOKEN} header when they change anything;
 * {@code GET /session} hands that cookie out, and signing in or out renews it. A failed sign-in counts as a refused
 * token. Where single sign-on is configured, {@code GET /session/sso} says where the browser goes instead.
 */
@Hidden // the browser's cookie session (CSRF-protected), not part of the bearer-token API clients are generated from
@RestController
@RequestMapping("/session")
@Tag(name = "session", description = "The dashboard's cookie session: sign in with an API token, sign out")
public class SessionController {

    private final SessionTokens sessions;
    private final TokenAuthentication tokens;
    private final FailedAuthentications failures;
    private final boolean singleSignOn;

    public SessionController(SessionTokens sessions, TokenAuthentication tokens, FailedAuthentications failures,
            SecurityProperties properties) {
        this.sessions = sessions;
        this.tokens = tokens;
        this.failures = failures;
        this.singleSignOn = properties.enabled() && properties.oidc().login().enabled();
    }

    /** Where the browser goes to sign in through the OIDC provider. */
    public record SingleSignOn(String loginUrl) {
    }

    /** A user's API token. */
    public record SignIn(String token) {
    }

    /** Who is signed in: the user's name, whether a global admin, its role in each project. */
    public record SessionView(String name, boolean globalAdmin, Map<String, Role> roles) {
    }

    @GetMapping
    @Operation(operationId = "getSession", summary = "Who is signed in (401 when nobody); sets the XSRF-TOKEN cookie for the next sign-in or change")
    public ResponseEntity<SessionView> current(@Parameter(hidden = true) CsrfToken csrf) {
        csrf.getToken(); // renders the deferred token, so its cookie goes out with this answer
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication != null && authentication.getPrincipal() instanceof Caller.User user) {
            return ResponseEntity.ok(view(user));
        }
        return ResponseEntity.status(HttpStatus.UNAUTHORIZED).build();
    }

    @PostMapping
    @Operation(operationId = "signIn", summary = "Sign in with a user's API token: answers the user and sets the session cookie")
    public SessionView signIn(@RequestBody SignIn signIn, HttpServletRequest request, HttpServletResponse response) {
        if (signIn == null || signIn.token() == null || signIn.token().isBlank()) {
            throw new InvalidRequestException("token", "must be a user's API token");
        }
        String token = signIn.token().strip();
        Authentication authentication;
        try {
            authentication = tokens.authenticate(new BearerTokenAuthenticationToken(token));
        } catch (AuthenticationException e) {
            failures.record(request, FailedAuthentications.REFUSED, e.getMessage());
            throw new InvalidRequestException("token", "is unknown, expired or revoked");
        }
        if (!(authentication.getPrincipal() instanceof Caller.User user)) {
            throw new InvalidRequestException("token", "is an agent's token; sign in with a user's token");
        }
        sessions.signIn(request, response, token);
        return view(user);
    }

    @GetMapping("/sso")
    @Operation(operationId = "getSingleSignOn", summary = "Whether the dashboard may sign in through the OIDC provider, and where (404: it may not)")
    public ResponseEntity<SingleSignOn> singleSignOn() {
        return singleSignOn ? ResponseEntity.ok(new SingleSignOn(SsoLogin.START)) : ResponseEntity.notFound().build();
    }

    @DeleteMapping
    @Operation(operationId = "signOut", summary = "Sign out: ends the session")
    public ResponseEntity<Void> signOut(HttpServletRequest request, HttpServletResponse response) {
        sessions.signOut(request, response);
        return ResponseEntity.noContent().build();
    }

    private static SessionView view(Caller.User user) {
        return new SessionView(user.name(), user.globalAdmin(), user.roles());
    }
}

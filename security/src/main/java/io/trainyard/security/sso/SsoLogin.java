package io.trainyard.security.sso;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import io.trainyard.security.SecurityProperties;
import io.trainyard.security.session.SessionTokens;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.config.ObjectPostProcessor;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.client.web.DefaultOAuth2AuthorizationRequestResolver;
import org.springframework.security.oauth2.client.web.OAuth2AuthorizationRequestCustomizers;
import org.springframework.security.oauth2.client.web.OAuth2AuthorizationRequestRedirectFilter;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.oidc.user.OidcUser;

/**
 * The dashboard's single sign-on: {@code GET /oauth2/authorization/sso} sends the browser to the provider with a
 * PKCE challenge; the provider sends it back to {@code /login/oauth2/code/sso}, where the code is exchanged (with
 * the verifier) for an ID token, whose user claim and groups start the same cookie session as an API token's sign-in
 * ({@link SessionTokens#signIn(HttpServletRequest, HttpServletResponse, SsoIdentity)}), and the browser goes to the
 * dashboard. A failed sign-in goes back to the dashboard's sign-in page with the reason.
 */
public final class SsoLogin {

    private static final Logger log = LoggerFactory.getLogger(SsoLogin.class);
    /** Where the dashboard starts a sign-in. */
    public static final String START = "/oauth2/authorization/" + ProviderRegistration.ID;

    private SsoLogin() {
    }

    /** @param jdbc where the sign-ins under way are kept ({@link StateKeyedRequests}) */
    public static void configure(HttpSecurity http, SecurityProperties.Oidc settings, SessionTokens sessions, JdbcClient jdbc)
            throws Exception {
        ProviderRegistration provider = new ProviderRegistration(settings.login());
        DefaultOAuth2AuthorizationRequestResolver requests = new DefaultOAuth2AuthorizationRequestResolver(provider,
                "/oauth2/authorization");
        // PKCE for a confidential client too: a stolen code is worthless without the verifier this server keeps.
        requests.setAuthorizationRequestCustomizer(OAuth2AuthorizationRequestCustomizers.withPkce());
        http.oauth2Login(login -> login
                .clientRegistrationRepository(provider)
                .authorizationEndpoint(endpoint -> endpoint.authorizationRequestResolver(requests)
                        .authorizationRequestRepository(new StateKeyedRequests(jdbc)))
                // A sign-in that cannot start (the provider unreachable) goes back with the reason, as a failed one does.
                .withObjectPostProcessor(new ObjectPostProcessor<OAuth2AuthorizationRequestRedirectFilter>() {
                    @Override
                    public <O extends OAuth2AuthorizationRequestRedirectFilter> O postProcess(O filter) {
                        filter.setAuthenticationFailureHandler(SsoLogin::failed);
                        return filter;
                    }
                })
                .loginPage("/")
                .successHandler((request, response, authentication) -> signedIn(request, response, authentication, settings, sessions))
                .failureHandler(SsoLogin::failed));
    }

    private static void signedIn(HttpServletRequest request, HttpServletResponse response, Authentication authentication,
            SecurityProperties.Oidc settings, SessionTokens sessions) throws IOException {
        OidcUser user = (OidcUser) authentication.getPrincipal();
        String name = user.getClaimAsString(settings.userClaim());
        if (name == null || name.isBlank()) {
            failed(request, response, "the ID token has no '" + settings.userClaim() + "' claim naming the user");
            return;
        }
        List<String> groups = user.hasClaim(settings.groupsClaim()) ? user.getClaimAsStringList(settings.groupsClaim()) : List.of();
        Instant expiresAt = user.getIdToken().getExpiresAt() != null ? user.getIdToken().getExpiresAt() : Instant.now().plusSeconds(3600);
        sessions.signIn(request, response, new SsoIdentity(name, groups, expiresAt));
        response.sendRedirect(request.getContextPath() + "/");
    }

    private static void failed(HttpServletRequest request, HttpServletResponse response, AuthenticationException e)
            throws IOException {
        log.info("A single sign-on failed: {}", e.getMessage());
        failed(request, response, reason(e));
    }

    /** Why a sign-in failed, for the person trying: the provider's own description where it gave one. */
    private static String reason(AuthenticationException e) {
        if (e.getCause() instanceof ProviderRegistration.UnreachableProvider unreachable) {
            return unreachable.getMessage();
        }
        if (!(e instanceof OAuth2AuthenticationException oauth)) {
            return e.getMessage();
        }
        OAuth2Error error = oauth.getError();
        if ("authorization_request_not_found".equals(error.getErrorCode())) {
            return "the sign-in was not started by this server, or took longer than 10 minutes: start again";
        }
        return error.getDescription() != null ? error.getDescription() : "the provider answered " + error.getErrorCode();
    }

    private static void failed(HttpServletRequest request, HttpServletResponse response, String reason) throws IOException {
        response.sendRedirect(request.getContextPath() + "/?ssoError=" + URLEncoder.encode(reason, StandardCharsets.UTF_8));
    }
}

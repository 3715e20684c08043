package io.trainyard.security.sso;

import java.time.Duration;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.security.oauth2.client.web.AuthorizationRequestRepository;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationRequest;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;

/**
 * The sign-ins under way, kept on the server by their {@code state} (random, unguessable, and sent back by the
 * provider), not in the HTTP session: the dashboard's session cookie is SameSite=Strict, so the browser leaves it
 * out of the provider's redirect back to this server, and no session need exist before sign-in. A sign-in not
 * completed in 10 minutes is forgotten. (The PKCE verifier stays here too; only its challenge went to the browser.)
 */
final class StateKeyedRequests implements AuthorizationRequestRepository<OAuth2AuthorizationRequest> {

    private final Cache<String, OAuth2AuthorizationRequest> pending = Caffeine.newBuilder()
            .expireAfterWrite(Duration.ofMinutes(10)).maximumSize(100_000).build();

    @Override
    public OAuth2AuthorizationRequest loadAuthorizationRequest(HttpServletRequest request) {
        String state = request.getParameter(OAuth2ParameterNames.STATE);
        return state == null ? null : pending.getIfPresent(state);
    }

    @Override
    public void saveAuthorizationRequest(OAuth2AuthorizationRequest authorizationRequest, HttpServletRequest request,
            HttpServletResponse response) {
        if (authorizationRequest != null) {
            pending.put(authorizationRequest.getState(), authorizationRequest);
        }
    }

    @Override
    public OAuth2AuthorizationRequest removeAuthorizationRequest(HttpServletRequest request, HttpServletResponse response) {
        String state = request.getParameter(OAuth2ParameterNames.STATE);
        return state == null ? null : pending.asMap().remove(state);
    }
}

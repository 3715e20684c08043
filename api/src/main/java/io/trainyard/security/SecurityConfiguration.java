package io.trainyard.security;

import java.util.Map;
import java.util.Set;

import io.trainyard.api.dashboard.Dashboard;
import io.trainyard.security.oidc.JwtCallers;
import io.trainyard.security.session.SessionTokens;
import io.trainyard.security.tokens.TokenAuthentication;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.AuthenticationManagerResolver;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.authorization.AuthorizationDecision;
import org.springframework.security.authorization.AuthorizationManager;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationProvider;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.intercept.RequestAuthorizationContext;

/**
 * Every endpoint but health and the OpenAPI document needs a bearer token: one of the server's own API tokens
 * (users' {@code ty_…}, agents' {@code tya_…}) or, when an OIDC issuer is configured, a JWT of that issuer; the
 * kind is told apart per request ({@link AuthenticationManagerResolver}). Agents may only speak the agent
 * protocol, for their own id; users may use everything else, within their roles (checked by
 * {@link ProjectAccess} per project; global admins only for users, agent tokens and the audit log). The dashboard
 * instead signs in once ({@code POST /session}) and is then authenticated by its session cookie
 * ({@link SessionTokens}); a request that changes anything with the cookie, and no bearer token, must echo the
 * CSRF token of the {@code XSRF-TOKEN} cookie in {@code X-XSRF-TOKEN}. Bearer requests carry no cookie, so they
 * have nothing for CSRF to forge and need no CSRF token. The dashboard's files are open to everyone.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(SecurityProperties.class)
public class SecurityConfiguration {

    private static final Logger log = LoggerFactory.getLogger(SecurityConfiguration.class);
    private static final String[] OPEN = {"/actuator/health", "/actuator/health/**", "/v3/api-docs", "/v3/api-docs.yaml",
            "/v3/api-docs/**", "/swagger-ui.html", "/swagger-ui/**", "/session", "/error"};
    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS", "TRACE");

    @Bean
    SecurityFilterChain securityFilterChain(HttpSecurity http, SecurityProperties properties,
            TokenAuthentication tokens, ObjectProvider<JwtDecoder> jwtDecoder, JwtCallers jwtCallers,
            ProblemResponses problems, SessionTokens sessionTokens) throws Exception {
        http.csrf(csrf -> csrf.spa().requireCsrfProtectionMatcher(SecurityConfiguration::needsCsrfToken))
                .sessionManagement(sessions -> sessions.sessionCreationPolicy(SessionCreationPolicy.NEVER))
                .securityContext(context -> context.securityContextRepository(sessionTokens))
                .requestCache(cache -> cache.disable())
                .exceptionHandling(errors -> errors.authenticationEntryPoint(problems).accessDeniedHandler(problems));
        if (!properties.enabled()) {
            log.warn("""
                    ****************************************************************************************
                    trainyard.security.enabled=false: EVERY REQUEST ACTS AS A GLOBAL ADMIN, WITHOUT A TOKEN.
                    This server runs user commands: use this only for tests and local experiments, never
                    where anyone else can reach the port.
                    ****************************************************************************************""");
            Caller.User everyone = new Caller.User("local-admin", true, Map.of(), null);
            return http.csrf(csrf -> csrf.disable()).anonymous(anonymous -> anonymous.principal(everyone)
                            .authorities(AuthorityUtils.createAuthorityList("ROLE_USER", "ROLE_GLOBAL_ADMIN", "ROLE_AGENT")))
                    .authorizeHttpRequests(requests -> requests.anyRequest().permitAll())
                    .build();
        }
        AuthenticationManager tokenManager = new ProviderManager(tokens);
        JwtDecoder decoder = jwtDecoder.getIfAvailable();
        AuthenticationManager jwtManager = decoder == null ? null : jwtManager(decoder, jwtCallers);
        AuthenticationManagerResolver<HttpServletRequest> managers = request ->
                jwtManager != null && !isOwnToken(request) ? jwtManager : tokenManager;
        return http
                .authorizeHttpRequests(requests -> requests
                        .requestMatchers(OPEN).permitAll()
                        .requestMatchers(HttpMethod.GET, Dashboard.PATHS).permitAll()
                        .requestMatchers(HttpMethod.GET, "/agents").hasRole("USER")
                        .requestMatchers("/agents/{agentId}", "/agents/{agentId}/**").access(ownAgentOnly())
                        .requestMatchers("/users/me").hasRole("USER")
                        .requestMatchers("/audit", "/users", "/users/**", "/agent-tokens", "/agent-tokens/**").hasRole("GLOBAL_ADMIN")
                        .anyRequest().hasRole("USER"))
                .oauth2ResourceServer(server -> server.authenticationManagerResolver(managers)
                        .authenticationEntryPoint(problems).accessDeniedHandler(problems))
                .build();
    }

    private static AuthenticationManager jwtManager(JwtDecoder decoder, JwtCallers callers) {
        JwtAuthenticationProvider provider = new JwtAuthenticationProvider(decoder);
        provider.setJwtAuthenticationConverter(callers);
        return new ProviderManager(provider);
    }

    /**
     * A change made with the session cookie, or signing in (so no page can sign a browser into another account); a
     * bearer request has no cookie to be forged with, and a request with neither is simply unauthenticated (401).
     */
    private static boolean needsCsrfToken(HttpServletRequest request) {
        return !SAFE_METHODS.contains(request.getMethod()) && request.getHeader(HttpHeaders.AUTHORIZATION) == null
                && (request.getRequestedSessionId() != null || "/session".equals(request.getRequestURI()));
    }

    /** The server's own tokens have a prefix no JWT has (a JWT starts with its base64 header, "ey…"). */
    private static boolean isOwnToken(HttpServletRequest request) {
        String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
        return authorization != null && authorization.regionMatches(true, 0, "Bearer ty", 0, 9);
    }

    /** The agent protocol of {@code /agents/{agentId}}: an agent's token, for that agent id only. */
    private static AuthorizationManager<RequestAuthorizationContext> ownAgentOnly() {
        return (authentication, context) -> new AuthorizationDecision(
                authentication.get() != null && authentication.get().getPrincipal() instanceof Caller.Agent agent
                        && agent.agentId().equals(context.getVariables().get("agentId")));
    }
}

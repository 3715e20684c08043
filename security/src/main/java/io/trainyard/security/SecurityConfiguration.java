package io.trainyard.security;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.trainyard.security.limits.AuthenticationThrottle;
import io.trainyard.security.oidc.JwtCallers;
import io.trainyard.security.session.SameOriginCheck;
import io.trainyard.security.session.SessionTokens;
import io.trainyard.security.sso.SsoLogin;
import io.trainyard.security.tokens.TokenAuthentication;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.jdbc.core.simple.JdbcClient;
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
import org.springframework.security.web.csrf.CookieCsrfTokenRepository;
import org.springframework.security.web.csrf.CsrfFilter;
import org.springframework.security.web.csrf.CsrfTokenRepository;
import org.springframework.security.web.header.writers.ContentSecurityPolicyHeaderWriter;
import org.springframework.security.web.header.writers.DelegatingRequestMatcherHeaderWriter;
import org.springframework.security.web.header.writers.ReferrerPolicyHeaderWriter.ReferrerPolicy;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.NegatedRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * Every endpoint but health and the OpenAPI document needs a bearer token: one of the server's own API tokens
 * (users' {@code ty_…}, agents' {@code tya_…}) or, when an OIDC issuer is configured, a JWT of that issuer; the
 * kind is told apart per request ({@link AuthenticationManagerResolver}). Agents may only speak the agent
 * protocol, for their own id; users may use everything else, within their roles (checked by
 * {@link ProjectAccess} per project; global admins only for users, agent tokens and the audit log). The dashboard
 * instead signs in once ({@code POST /session}) and is then authenticated by its session cookie
 * ({@link SessionTokens}); a request that changes anything with the cookie, and no bearer token, must echo the
 * CSRF token of the {@code XSRF-TOKEN} cookie in {@code X-XSRF-TOKEN} and come from the server's own pages
 * ({@link SameOriginCheck}). Bearer requests carry no cookie, so they have nothing for CSRF to forge and need
 * neither. An address that fails to authenticate too often is throttled ({@link AuthenticationThrottle}). The
 * dashboard's files are open to everyone, and served with a strict Content-Security-Policy.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(SecurityProperties.class)
public class SecurityConfiguration {

    private static final Logger log = LoggerFactory.getLogger(SecurityConfiguration.class);
    private static final String[] OPEN = {"/actuator/health", "/actuator/health/**", "/v3/api-docs", "/v3/api-docs.yaml",
            "/v3/api-docs/**", "/swagger-ui.html", "/swagger-ui/**", "/session", "/session/sso", "/error"};
    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS", "TRACE");
    /**
     * The dashboard's policy: its scripts and everything it loads come from the server, no inline script runs, no
     * other site may frame it. Styles may be inline: CodeMirror writes its themes into {@code <style>} elements
     * (style-mod; a nonce would need a per-response index.html) and ansi_up colours log lines with style
     * attributes. An injected style can load nothing from elsewhere (img-src and font-src stay 'self'), and
     * CodeMirror's lint underline is a data: SVG.
     */
    static final String CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
            + "img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
    /**
     * TensorBoard's pages, proxied: they need eval (numericjs), inline styles from Google's chart library and frames,
     * and TensorBoard sends a policy of its own for them (any inline script allowed by its hash), which the proxy
     * passes on; a second policy would apply as well and block them.
     */
    private static final RequestMatcher TENSORBOARD = new OrRequestMatcher(
            PathPatternRequestMatcher.withDefaults().matcher("/jobs/{id}/tensorboard/**"),
            PathPatternRequestMatcher.withDefaults().matcher("/tensorboards/**"));

    @Bean
    SecurityFilterChain securityFilterChain(HttpSecurity http, SecurityProperties properties,
            TokenAuthentication tokens, ObjectProvider<JwtDecoder> jwtDecoder, JwtCallers jwtCallers,
            ProblemResponses problems, SessionTokens sessionTokens, CsrfTokenRepository csrfTokens,
            AuthenticationThrottle throttle, List<PublicPaths> publicPaths, JdbcClient jdbc) throws Exception {
        // Spring Security's other headers stay as they are: X-Content-Type-Options nosniff, X-Frame-Options DENY.
        http.headers(headers -> headers
                        .addHeaderWriter(new DelegatingRequestMatcherHeaderWriter(new NegatedRequestMatcher(TENSORBOARD),
                                new ContentSecurityPolicyHeaderWriter(CONTENT_SECURITY_POLICY)))
                        // Our own requests keep theirs (SameOriginCheck falls back on it); other sites learn no job id.
                        .referrerPolicy(referrer -> referrer.policy(ReferrerPolicy.SAME_ORIGIN)))
                .csrf(csrf -> csrf.spa().csrfTokenRepository(csrfTokens)
                        .requireCsrfProtectionMatcher(SecurityConfiguration::needsCsrfToken))
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
        if (properties.oidc().login().enabled()) {
            SsoLogin.configure(http, properties.oidc(), sessionTokens, jdbc);
        }
        return http
                .addFilterBefore(throttle::doFilter, CsrfFilter.class)
                .addFilterBefore(new SameOriginCheck(SecurityConfiguration::needsCsrfToken), CsrfFilter.class)
                .addFilterBefore(SecurityConfiguration::skipCsrfForBearerRequests, CsrfFilter.class)
                .authorizeHttpRequests(requests -> requests
                        .requestMatchers(OPEN).permitAll()
                        .requestMatchers(HttpMethod.GET, publicPaths.stream().flatMap(open -> open.paths().stream())
                                .toArray(String[]::new)).permitAll()
                        .requestMatchers(HttpMethod.GET, "/agents").hasRole("USER")
                        .requestMatchers("/agents/{agentId}", "/agents/{agentId}/**").access(ownAgentOnly())
                        .requestMatchers("/users/me").hasRole("USER")
                        .requestMatchers("/audit", "/users", "/users/**", "/agent-tokens", "/agent-tokens/**").hasRole("GLOBAL_ADMIN")
                        .anyRequest().hasRole("USER"))
                .oauth2ResourceServer(server -> server.authenticationManagerResolver(managers)
                        .authenticationEntryPoint(problems).accessDeniedHandler(problems))
                .build();
    }

    /** The XSRF-TOKEN cookie, readable by the dashboard's scripts; {@link SessionTokens} renews it at sign-in. */
    @Bean
    CsrfTokenRepository csrfTokenRepository() {
        return CookieCsrfTokenRepository.withHttpOnlyFalse();
    }

    private static AuthenticationManager jwtManager(JwtDecoder decoder, JwtCallers callers) {
        JwtAuthenticationProvider provider = new JwtAuthenticationProvider(decoder);
        provider.setJwtAuthenticationConverter(callers);
        return new ProviderManager(provider);
    }

    /**
     * A change made with the session cookie, or signing in (so no page can sign a browser into another account); a
     * bearer request is authenticated by its token alone, which no other site can make a browser send, and a request
     * with neither is simply unauthenticated (401).
     */
    private static boolean needsCsrfToken(HttpServletRequest request) {
        return !SAFE_METHODS.contains(request.getMethod()) && !hasBearerToken(request)
                && (request.getRequestedSessionId() != null || "/session".equals(request.getRequestURI()));
    }

    /**
     * A bearer request passes by CSRF altogether: besides checking, Spring's CsrfFilter in its SPA mode makes a token
     * for every request that brought none and sets it as the XSRF-TOKEN cookie, which an API client has no use for (a
     * random token and a Set-Cookie header for each request: 3 % of a submission's CPU).
     */
    private static void skipCsrfForBearerRequests(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (request instanceof HttpServletRequest http && hasBearerToken(http)) {
            CsrfFilter.skipRequest(http);
        }
        chain.doFilter(request, response);
    }

    private static boolean hasBearerToken(HttpServletRequest request) {
        String authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
        return authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7);
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

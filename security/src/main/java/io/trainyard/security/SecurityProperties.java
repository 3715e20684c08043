package io.trainyard.security;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code trainyard.security.*}.
 *
 * @param enabled off only for tests and local experiments: every request then acts as a global admin
 * @param tokenLifetime how long a new token lasts when its creator names no expiry
 * @param maxTokenLifetime the longest expiry a token may have
 * @param rateLimits per-token limits on what costs the server most, and per-address limits on failed authentications
 * @param oidc how JWTs of the configured issuer ({@code spring.security.oauth2.resourceserver.jwt.*}) become users
 */
@ConfigurationProperties("trainyard.security")
public record SecurityProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("90d") Duration tokenLifetime,
        @DefaultValue("365d") Duration maxTokenLifetime,
        @DefaultValue RateLimits rateLimits,
        @DefaultValue Oidc oidc) {

    /**
     * @param submissionsPerSecond sustained submissions (and dry runs) per token; twice as many in a burst
     * @param streamsPerMinute new live streams (SSE follows) per token
     * @param concurrentStreams live streams one token may hold open at once
     * @param failedAuthenticationsPerMinute refused tokens (and failed sign-ins) per client address; past them the
     *     address's attempts to authenticate are answered 429
     */
    public record RateLimits(
            @DefaultValue("50") int submissionsPerSecond,
            @DefaultValue("60") int streamsPerMinute,
            @DefaultValue("16") int concurrentStreams,
            @DefaultValue("30") int failedAuthenticationsPerMinute) {
    }

    /**
     * @param userClaim the claim that names the user (a user of that name is created at first sight)
     * @param groupsClaim the claim listing the user's groups
     * @param groupRoles roles a group grants, each as {@code project:role} (e.g. {@code ml-ranking: [ranking:editor]})
     * @param adminGroups groups whose members are global admins
     * @param login the dashboard's single sign-on through the issuer, off unless its client id is set
     */
    public record Oidc(
            @DefaultValue("sub") String userClaim,
            @DefaultValue("groups") String groupsClaim,
            Map<String, List<String>> groupRoles,
            List<String> adminGroups,
            @DefaultValue Login login) {

        public Oidc {
            groupRoles = groupRoles == null ? Map.of() : Map.copyOf(groupRoles);
            adminGroups = adminGroups == null ? List.of() : List.copyOf(adminGroups);
        }
    }

    /**
     * Sign-in to the dashboard through an OIDC provider (Authorization Code with PKCE). The user and its roles come
     * from the ID token's claims as for a JWT bearer token ({@link Oidc}).
     *
     * @param issuerUri the provider (its {@code /.well-known/openid-configuration} is read at the first sign-in)
     * @param clientId this server's client at the provider; unset: no single sign-on
     * @param clientSecret the client's secret when the provider made it a confidential client; unset: a public
     *     client, which PKCE alone protects
     * @param scopes asked for; the groups claim may need one more (e.g. {@code groups})
     */
    public record Login(String issuerUri, String clientId, String clientSecret,
            @DefaultValue({"openid", "profile", "email"}) List<String> scopes) {

        public boolean enabled() {
            return clientId != null && !clientId.isBlank();
        }
    }
}

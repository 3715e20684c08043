package io.trainyard.security.sso;

import java.io.Serializable;
import java.time.Instant;
import java.util.List;

/**
 * Who signed in to the dashboard through the OIDC provider, as its ID token said: kept in the session, and made a
 * user again on each request (so a change of the groups' roles in settings applies at once) until the ID token
 * expires; then the dashboard signs in again.
 *
 * @param name the user claim's value (the user is {@code oidc:<name>}, as for a JWT bearer token)
 */
public record SsoIdentity(String name, List<String> groups, Instant expiresAt) implements Serializable {

    public SsoIdentity {
        groups = List.copyOf(groups);
    }

    public boolean expired() {
        return !expiresAt.isAfter(Instant.now());
    }
}

package io.trainyard.security.oidc;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.trainyard.security.Caller;
import io.trainyard.security.CallerAuthentication;
import io.trainyard.security.Callers;
import io.trainyard.security.Role;
import io.trainyard.security.SecurityProperties;
import org.springframework.core.convert.converter.Converter;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.server.resource.InvalidBearerTokenException;
import org.springframework.stereotype.Component;

/**
 * A JWT of the configured OIDC issuer as a Trainyard user: named {@code oidc:<user claim>} (so an OIDC
 * identity can never act as a local user of the same name) and created at first sight, with the roles its
 * memberships give plus those its groups grant ({@code trainyard.security.oidc.group-roles}), and global
 * admin when one of its groups is an admin group.
 */
@Component
public class JwtCallers implements Converter<Jwt, AbstractAuthenticationToken> {

    public static final String USER_PREFIX = "oidc:";

    private final Callers callers;
    private final SecurityProperties.Oidc settings;
    private final Map<String, Map<String, Role>> rolesByGroup = new HashMap<>();

    public JwtCallers(Callers callers, SecurityProperties properties) {
        this.callers = callers;
        this.settings = properties.oidc();
        settings.groupRoles().forEach((group, grants) -> {
            Map<String, Role> roles = new HashMap<>();
            for (String grant : grants) {
                int colon = grant.lastIndexOf(':');
                if (colon <= 0) {
                    throw new IllegalArgumentException("trainyard.security.oidc.group-roles." + group + ": '" + grant
                            + "' must be project:role (viewer, editor or admin)");
                }
                roles.merge(grant.substring(0, colon), Role.valueOf(grant.substring(colon + 1).strip().toUpperCase(Locale.ROOT)),
                        Role::strongest);
            }
            rolesByGroup.put(group, roles);
        });
    }

    @Override
    public AbstractAuthenticationToken convert(Jwt jwt) {
        String name = jwt.getClaimAsString(settings.userClaim());
        if (name == null || name.isBlank()) {
            throw new InvalidBearerTokenException("the token has no '" + settings.userClaim() + "' claim naming the user");
        }
        List<String> groups = jwt.hasClaim(settings.groupsClaim()) ? jwt.getClaimAsStringList(settings.groupsClaim()) : List.of();
        return new CallerAuthentication(user(name, groups), () -> renew(jwt));
    }

    /** The user an identity of the issuer is, with the roles its groups grant (the dashboard's sign-on asks too). */
    public Caller.User user(String name, List<String> groups) {
        Map<String, Role> granted = new HashMap<>();
        for (String group : groups) {
            rolesByGroup.getOrDefault(group, Map.of()).forEach((project, role) -> granted.merge(project, role, Role::strongest));
        }
        boolean admin = groups.stream().anyMatch(settings.adminGroups()::contains);
        return callers.userWithGrants(USER_PREFIX + name, granted, admin);
    }

    /** The JWT's user as it is now, while the JWT has not expired: its signature was checked once and stays good. */
    private Caller renew(Jwt jwt) {
        Instant expiresAt = jwt.getExpiresAt();
        if (expiresAt != null && !expiresAt.isAfter(Instant.now())) {
            throw new InvalidBearerTokenException("the token has expired");
        }
        return ((CallerAuthentication) convert(jwt)).getPrincipal();
    }
}

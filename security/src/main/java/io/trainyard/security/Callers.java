package io.trainyard.security;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import com.github.benmanes.caffeine.cache.Cache;
import io.trainyard.security.users.Users;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Component;

/**
 * Turns a user name into the {@link Caller} it acts as (global admin or not, its role in each project), and
 * tells who the current request's caller is. A user's memberships are cached ({@link AccessCache}): every request
 * needs them, and a change of role takes effect within {@value AccessCache#LIFETIME_MILLIS} ms.
 */
@Component
public class Callers {

    private final Users users;
    private final Cache<String, Optional<Caller.User>> known = AccessCache.holding(10_000);

    public Callers(Users users) {
        this.users = users;
    }

    /** The user of this name through its stored memberships; empty if there is no such user. */
    public Optional<Caller.User> user(String name, UUID tokenId) {
        return known.get(name, this::load).map(user -> new Caller.User(user.name(), user.globalAdmin(), user.roles(), tokenId));
    }

    /**
     * The user of this name with extra roles and admin rights granted from outside (OIDC groups), created at
     * first sight.
     */
    public Caller.User userWithGrants(String name, Map<String, Role> granted, boolean adminByGrant) {
        Optional<Caller.User> stored = known.get(name, this::load);
        if (stored.isEmpty()) {
            users.create(name, false);
            known.invalidate(name);
            stored = known.get(name, this::load);
        }
        Caller.User user = stored.orElseThrow();
        Map<String, Role> roles = new HashMap<>(user.roles());
        granted.forEach((project, role) -> roles.merge(project, role, Role::strongest));
        return new Caller.User(name, user.globalAdmin() || adminByGrant, roles, null);
    }

    /** Forgets what is cached, after a change of users or memberships made through this server. */
    public void forget(String name) {
        known.invalidate(name);
    }

    private Optional<Caller.User> load(String name) {
        return users.find(name).map(user -> new Caller.User(user.name(), user.globalAdmin(), users.memberships(name), null));
    }

    /** The caller of the current request. */
    public static Caller current() {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication != null && authentication.getPrincipal() instanceof Caller caller) {
            return caller;
        }
        throw new AccessDeniedException("not authenticated");
    }

    /** The current caller, which must be a user (agents speak only the agent protocol). */
    public static Caller.User currentUser() {
        if (current() instanceof Caller.User user) {
            return user;
        }
        throw new AccessDeniedException("agent tokens may only be used for the agent protocol");
    }
}

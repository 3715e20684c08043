package io.trainyard.security;

import java.util.ArrayList;
import java.util.List;

import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/**
 * An authenticated request: its {@link Caller} is the principal. The authorities say only which kind of
 * caller it is (URL rules use them); what a user may do in a project is decided by {@link ProjectAccess}.
 * It can authenticate its credential again ({@link #renewed()}), for a request that lasts (an SSE stream).
 */
public final class CallerAuthentication extends AbstractAuthenticationToken {

    /** Authenticates the credential a request came with once more. */
    @FunctionalInterface
    public interface Renewal {

        /**
         * The caller as it is now (its roles as they are now).
         *
         * @throws AuthenticationException when the credential is no longer valid: revoked, expired, its user gone
         */
        Caller caller();
    }

    private final Caller caller;
    private final transient Renewal renewal;

    public CallerAuthentication(Caller caller, Renewal renewal) {
        super(authorities(caller));
        this.caller = caller;
        this.renewal = renewal;
        setAuthenticated(true);
    }

    /**
     * The caller as its credential authenticates now.
     *
     * @throws AuthenticationException when the credential is no longer valid
     */
    public Caller renewed() {
        return renewal.caller();
    }

    private static List<GrantedAuthority> authorities(Caller caller) {
        List<GrantedAuthority> authorities = new ArrayList<>();
        switch (caller) {
            case Caller.User user -> {
                authorities.add(new SimpleGrantedAuthority("ROLE_USER"));
                if (user.globalAdmin()) {
                    authorities.add(new SimpleGrantedAuthority("ROLE_GLOBAL_ADMIN"));
                }
            }
            case Caller.Agent agent -> authorities.add(new SimpleGrantedAuthority("ROLE_AGENT"));
        }
        return authorities;
    }

    @Override
    public Caller getPrincipal() {
        return caller;
    }

    @Override
    public Object getCredentials() {
        return null;
    }
}

package io.trainyard.security;

import java.util.ArrayList;
import java.util.List;

import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/**
 * An authenticated request: its {@link Caller} is the principal. The authorities say only which kind of
 * caller it is (URL rules use them); what a user may do in a project is decided by {@link ProjectAccess}.
 */
public final class CallerAuthentication extends AbstractAuthenticationToken {

    private final Caller caller;

    public CallerAuthentication(Caller caller) {
        super(authorities(caller));
        this.caller = caller;
        setAuthenticated(true);
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

package io.trainyard.security.sso;

import java.util.Iterator;
import java.util.List;

import io.trainyard.security.SecurityProperties;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.oauth2.client.registration.ClientRegistrations;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;

/**
 * The dashboard's client at the OIDC provider, registration {@value #ID}. Its endpoints come from the provider's
 * discovery document, read at the first sign-in rather than at start: a provider that is down when the server
 * starts costs a failed sign-in, not a server that does not start. A client without a secret is a public client:
 * Spring Security then sends a PKCE challenge, and the flow is tied to this browser by it alone.
 */
public final class ProviderRegistration implements ClientRegistrationRepository, Iterable<ClientRegistration> {

    public static final String ID = "sso";

    private final SecurityProperties.Login settings;
    private volatile ClientRegistration registration;

    public ProviderRegistration(SecurityProperties.Login settings) {
        if (settings.issuerUri() == null || settings.issuerUri().isBlank()) {
            throw new IllegalArgumentException("trainyard.security.oidc.login.issuer-uri must name the OIDC provider when "
                    + "trainyard.security.oidc.login.client-id is set");
        }
        this.settings = settings;
    }

    @Override
    public ClientRegistration findByRegistrationId(String registrationId) {
        return ID.equals(registrationId) ? registration() : null;
    }

    @Override
    public Iterator<ClientRegistration> iterator() {
        return List.of(registration()).iterator();
    }

    /** The provider's discovery document could not be read: a sign-in cannot start. */
    static final class UnreachableProvider extends RuntimeException {

        UnreachableProvider(String issuer, RuntimeException cause) {
            super("the sign-in provider " + issuer + " could not be reached (" + cause.getMessage() + "); try again later", cause);
        }
    }

    private ClientRegistration registration() {
        ClientRegistration known = registration;
        if (known == null) {
            boolean confidential = settings.clientSecret() != null && !settings.clientSecret().isBlank();
            ClientRegistration.Builder discovered;
            try {
                discovered = ClientRegistrations.fromIssuerLocation(settings.issuerUri());
            } catch (RuntimeException e) {
                throw new UnreachableProvider(settings.issuerUri(), e);
            }
            known = discovered
                    .registrationId(ID)
                    .clientId(settings.clientId())
                    .clientSecret(confidential ? settings.clientSecret() : null)
                    .clientAuthenticationMethod(confidential ? ClientAuthenticationMethod.CLIENT_SECRET_BASIC : ClientAuthenticationMethod.NONE)
                    .scope(settings.scopes())
                    .redirectUri("{baseUrl}/login/oauth2/code/{registrationId}")
                    .build();
            registration = known;
        }
        return known;
    }
}

package io.trainyard.api.tokens;

import java.time.Duration;

import io.trainyard.security.SecurityProperties;
import io.trainyard.validation.InvalidRequestException;
import org.springframework.stereotype.Component;

/** How long a new token lasts: what its creator asks, within the server's limit, else the server's default. */
@Component
public class TokenLifetimes {

    private final SecurityProperties properties;

    public TokenLifetimes(SecurityProperties properties) {
        this.properties = properties;
    }

    public Duration of(NewToken token) {
        if (token.expiresInDays() == null) {
            return properties.tokenLifetime();
        }
        Duration asked = Duration.ofDays(token.expiresInDays());
        if (asked.compareTo(properties.maxTokenLifetime()) > 0) {
            throw new InvalidRequestException("expiresInDays", "must be at most " + properties.maxTokenLifetime().toDays()
                    + " (trainyard.security.max-token-lifetime)");
        }
        return asked;
    }
}

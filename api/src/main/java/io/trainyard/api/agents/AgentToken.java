package io.trainyard.api.agents;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;

import io.trainyard.backend.local.agents.AgentProperties;
import org.springframework.stereotype.Component;

/**
 * The secret agents present as {@code Authorization: Bearer <token>}: {@code trainyard.agent.token}, or
 * when that is unset a random one known only inside this server (its own agent), so no agent elsewhere can
 * register with a server that was not given a token on purpose.
 */
@Component
public class AgentToken {

    private final String token;
    private final boolean configured;

    public AgentToken(AgentProperties properties) {
        this.configured = properties.token() != null && !properties.token().isBlank();
        this.token = configured ? properties.token() : randomToken();
    }

    public String value() {
        return token;
    }

    /** Checks an Authorization header in constant time. */
    public void check(String authorization) {
        byte[] expected = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
        byte[] given = authorization == null ? new byte[0] : authorization.getBytes(StandardCharsets.UTF_8);
        if (!MessageDigest.isEqual(expected, given)) {
            throw new AgentTokenRejectedException(configured
                    ? "the agent token is missing or wrong"
                    : "this server accepts no agents but its own: start it with trainyard.agent.token set and give agents that token");
        }
    }

    private static String randomToken() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}

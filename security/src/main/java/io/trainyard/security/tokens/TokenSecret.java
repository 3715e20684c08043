package io.trainyard.security.tokens;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * A token's secret: 256 random bits behind a prefix that says what it is ({@code ty_} for users,
 * {@code tya_} for agents, so a leaked one is recognisable in logs and scanners). Only its SHA-256 is stored:
 * the secret has full entropy, so a fast hash is as good as a slow one and keeps authentication cheap.
 */
public final class TokenSecret {

    static final String USER_PREFIX = "ty_";
    static final String AGENT_PREFIX = "tya_";
    private static final SecureRandom RANDOM = new SecureRandom();

    private TokenSecret() {
    }

    static String generate(String prefix) {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return prefix + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    public static String hash(String secret) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }
}

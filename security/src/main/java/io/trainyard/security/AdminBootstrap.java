package io.trainyard.security;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

import io.trainyard.core.TrainyardProperties;
import io.trainyard.security.tokens.ApiTokens;
import io.trainyard.security.users.Users;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.stereotype.Component;

/**
 * On the first start (no global admin exists yet) creates the global admin {@value #ADMIN} and a token for it,
 * written to {@code <data-dir>/admin-token}, readable by the server's user only; the log says where it is,
 * never what it is. With it, the admin creates projects, users and their tokens. Replicas starting together
 * on a new database create it once: only the one whose insert made the user writes a token. It runs once
 * every bean is ready (the schema migrated) and before the server starts listening, so whoever sees the
 * server healthy finds the file.
 */
@Component
class AdminBootstrap implements SmartInitializingSingleton {

    static final String ADMIN = "admin";
    static final String TOKEN_FILE = "admin-token";
    private static final Logger log = LoggerFactory.getLogger(AdminBootstrap.class);

    private final Users users;
    private final ApiTokens tokens;
    private final SecurityProperties security;
    private final TrainyardProperties trainyard;

    AdminBootstrap(Users users, ApiTokens tokens, SecurityProperties security, TrainyardProperties trainyard) {
        this.users = users;
        this.tokens = tokens;
        this.security = security;
        this.trainyard = trainyard;
    }

    @Override
    public void afterSingletonsInstantiated() {
        if (!security.enabled() || users.anyGlobalAdmin() || !users.create(ADMIN, true)) {
            return;
        }
        ApiTokens.Created token = tokens.createForUser(ADMIN, "bootstrap", security.maxTokenLifetime(), "server");
        Path file = trainyard.dataDir().resolve(TOKEN_FILE);
        try {
            Files.createDirectories(file.getParent());
            Files.deleteIfExists(file);
            // Created with its permissions, so the secret is never readable by others, not even for a moment.
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(file, token.secret() + "\n", StandardCharsets.UTF_8, StandardOpenOption.TRUNCATE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the first admin token to " + file, e);
        }
        log.warn("Created the global admin '{}' and its token (expires {}); the token is in {} (readable by this user only). "
                + "Use it to create projects, users and their own tokens.", ADMIN, token.token().expiresAt(), file);
    }
}

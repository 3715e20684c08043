package io.trainyard.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The password of the embedded PostgreSQL's superuser: made at the first start, kept in a file only the server's
 * user may read ({@code <data-dir>/postgres-password}, mode 0600), and required of every connection (SCRAM), so
 * that no other process of the host (a trainer among them) reaches the database by being local.
 */
record DatabasePassword(Path file, String secret) {

    private static final int BYTES = 32;

    /** The stored password, or none yet (a database made before passwords, or none at all). */
    static DatabasePassword at(Path file) throws IOException {
        return Files.exists(file) ? new DatabasePassword(file, Files.readString(file, StandardCharsets.UTF_8).strip()) : null;
    }

    /** A new random password, written (readable by this user only) before it is used anywhere. */
    static DatabasePassword create(Path file) throws IOException {
        byte[] random = new byte[BYTES];
        new SecureRandom().nextBytes(random);
        String secret = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(temporary);
        Files.createFile(temporary, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(temporary, secret, StandardCharsets.UTF_8);
        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return new DatabasePassword(file, secret);
    }

    @Override
    public String toString() {
        return "DatabasePassword[" + file + "]"; // never the secret
    }
}

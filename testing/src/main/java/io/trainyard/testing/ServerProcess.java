package io.trainyard.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The server in a JVM of its own on a given port, so that a test can kill it with SIGKILL and start it again. */
public final class ServerProcess implements AutoCloseable {

    private final Process process;
    private final String baseUrl;
    private final Path dataDir;

    private ServerProcess(Process process, int port, Path dataDir) {
        this.process = process;
        this.baseUrl = "http://127.0.0.1:" + port;
        this.dataDir = dataDir;
    }

    /**
     * A client of a server as its first global admin, when the server wrote that token under this data folder
     * (its first start on a new database, security on); else a client without a token.
     */
    public static TrainyardClient client(String baseUrl, Path dataDir) {
        return Files.exists(dataDir.resolve(TrainyardClient.ADMIN_TOKEN_FILE)) ? TrainyardClient.asAdmin(baseUrl, dataDir)
                : new TrainyardClient(baseUrl, null);
    }

    /**
     * Starts the server and waits until it answers.
     *
     * @param databaseUrl null to let the server start its embedded PostgreSQL
     */
    public static ServerProcess start(String databaseUrl, int port, Path dataDir, String nodeId, List<String> extraArguments)
            throws IOException {
        List<String> arguments = new ArrayList<>(List.of("--server.port=" + port,
                "--trainyard.data-dir=" + dataDir, "--trainyard.node-id=" + nodeId, "--spring.main.banner-mode=off"));
        if (databaseUrl != null) {
            arguments.add("--spring.datasource.url=" + databaseUrl);
        }
        arguments.addAll(extraArguments);
        ServerProcess server = new ServerProcess(
                TestJvm.start(dataDir.resolve(nodeId + "-server.log"), "io.trainyard.TrainyardServer", arguments), port, dataDir);
        server.awaitHealthy();
        return server;
    }

    /** The server as its first global admin (when it made one in this data folder; else without a token). */
    public TrainyardClient api() {
        return client(baseUrl, dataDir);
    }

    /** SIGTERM: the server shuts down as an orchestrator stops it (a rolling restart), and is waited for. */
    public void stop() throws InterruptedException {
        process.destroy();
        process.waitFor();
    }

    /** SIGKILL: the server dies mid-flight, without shutting anything down. */
    public void kill() throws InterruptedException {
        TestJvm.kill(process);
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }

    private void awaitHealthy() {
        Eventually.await("the server answering", () -> {
            if (!process.isAlive()) {
                throw new AssertionError("the server process exited with " + process.exitValue());
            }
            try {
                return new RawHttpClient(baseUrl, null).get("/actuator/health").status() == 200;
            } catch (AssertionError notListeningYet) {
                return false;
            }
        }, Duration.ofSeconds(120));
    }
}

package io.trainyard.testing;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The server in a JVM of its own on a given port, so that a test can kill it with SIGKILL and start it again. */
public final class ServerProcess implements AutoCloseable {

    private final Process process;
    private final ApiClient api;

    private ServerProcess(Process process, int port) {
        this.process = process;
        this.api = new ApiClient("http://127.0.0.1:" + port);
    }

    /** Starts the server and waits until it answers. */
    public static ServerProcess start(String databaseUrl, int port, Path dataDir, String nodeId, List<String> extraArguments)
            throws IOException {
        List<String> arguments = new ArrayList<>(List.of("--server.port=" + port, "--spring.datasource.url=" + databaseUrl,
                "--trainyard.data-dir=" + dataDir, "--trainyard.node-id=" + nodeId, "--spring.main.banner-mode=off"));
        arguments.addAll(extraArguments);
        ServerProcess server = new ServerProcess(
                TestJvm.start(dataDir.resolve(nodeId + "-server.log"), "io.trainyard.TrainyardServer", arguments), port);
        server.awaitHealthy();
        return server;
    }

    public ApiClient api() {
        return api;
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
        ApiClient.await("the server answering", () -> {
            if (!process.isAlive()) {
                throw new AssertionError("the server process exited with " + process.exitValue());
            }
            try {
                return api.get("/actuator/health").status() == 200;
            } catch (AssertionError notListeningYet) {
                return false;
            }
        }, Duration.ofSeconds(60));
    }
}

package io.trainyard.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * An agent in its own JVM, started from {@code agent/target/trainyard-agent.jar} as GPU hosts start it (the
 * build's package phase writes it; its path comes in the system property {@value #JAR_PROPERTY}), reporting
 * to a test server with a simulated inventory.
 */
public final class AgentProcess implements AutoCloseable {

    public static final String TOKEN = "test-agent-token";
    static final String JAR_PROPERTY = "trainyard.agent.jar";
    /** Server arguments for tests with remote agents: no agent inside the server, and the token they present. */
    public static final List<String> SERVER_ARGUMENTS = List.of("--trainyard.local.embedded-agent=false",
            "--trainyard.agent.token=" + TOKEN);

    private final Process process;

    private AgentProcess(Process process) {
        this.process = process;
    }

    /**
     * @param simulatedGpus GPUs offered for placement (0: CPU slots only)
     * @param extraArguments more {@code --name=value} agent arguments
     */
    public static AgentProcess start(String serverUrl, String agentId, Path dataDir, int simulatedGpus,
            String... extraArguments) throws IOException {
        List<String> arguments = new ArrayList<>(List.of("--server=" + serverUrl, "--token=" + TOKEN, "--agent-id=" + agentId,
                "--data-dir=" + dataDir, "--cancel-grace-period=2s"));
        if (simulatedGpus > 0) {
            arguments.add("--simulated-gpus=" + simulatedGpus);
        }
        arguments.addAll(List.of(extraArguments));
        return new AgentProcess(TestJvm.startJar(dataDir.resolve("agent.log"), agentJar(), arguments));
    }

    private static Path agentJar() {
        String jar = System.getProperty(JAR_PROPERTY);
        if (jar == null || !Files.isRegularFile(Path.of(jar))) {
            throw new IllegalStateException("the agent jar (" + JAR_PROPERTY + "=" + jar + ") is missing: run the tests "
                    + "with `mvn verify`, whose package phase builds agent/target/trainyard-agent.jar first");
        }
        return Path.of(jar);
    }

    /** SIGKILL: the agent dies like a crashed host, its trainers (in their own sessions) keep running. */
    public void kill() throws InterruptedException {
        TestJvm.kill(process);
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        process.waitFor();
    }
}

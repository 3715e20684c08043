package io.trainyard.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.trainyard.client.ApiException;
import io.trainyard.client.model.NewAgentToken;

/**
 * An agent in its own JVM, started from {@code agent/target/trainyard-agent.jar} as GPU hosts start it (the
 * build's package phase writes it; its path comes in the system property {@value #JAR_PROPERTY}), reporting
 * to a test server with a simulated inventory.
 */
public final class AgentProcess implements AutoCloseable {

    static final String JAR_PROPERTY = "trainyard.agent.jar";
    /** Server arguments for tests with remote agents only: no agent inside the server. */
    public static final List<String> SERVER_ARGUMENTS = List.of("--trainyard.local.embedded-agent=false");

    private final Process process;

    private AgentProcess(Process process) {
        this.process = process;
    }

    /**
     * Starts an agent with a token of its own, which {@code admin} (a global admin's client of the server) creates.
     *
     * @param simulatedGpus GPUs offered for placement (0: CPU slots only)
     * @param extraArguments more {@code --name=value} agent arguments
     */
    public static AgentProcess start(TrainyardClient admin, String agentId, Path dataDir, int simulatedGpus,
            String... extraArguments) throws IOException {
        return start(admin.baseUrl(), tokenFor(admin, agentId), agentId, dataDir, simulatedGpus, extraArguments);
    }

    /** Starts an agent with the given token, reporting to {@code serverUrl}. */
    public static AgentProcess start(String serverUrl, String token, String agentId, Path dataDir, int simulatedGpus,
            String... extraArguments) throws IOException {
        List<String> arguments = new ArrayList<>(List.of("--server=" + serverUrl, "--token=" + token, "--agent-id=" + agentId,
                "--data-dir=" + dataDir, "--cancel-grace-period=2s"));
        if (simulatedGpus > 0) {
            arguments.add("--simulated-gpus=" + simulatedGpus);
        }
        arguments.addAll(List.of(extraArguments));
        return new AgentProcess(TestJvm.startJar(dataDir.resolve("agent.log"), agentJar(), arguments));
    }

    /**
     * Starts an agent with a token of its own on another host: a command prefix such as {@code ip netns exec h}
     * (see {@link NetworkNamespaces}); it offers CPU slots only.
     */
    public static AgentProcess startOn(List<String> host, TrainyardClient admin, String agentId, Path dataDir,
            String... extraArguments) throws IOException {
        List<String> arguments = new ArrayList<>(List.of("--server=" + admin.baseUrl(), "--token=" + tokenFor(admin, agentId),
                "--agent-id=" + agentId, "--data-dir=" + dataDir, "--cancel-grace-period=2s"));
        arguments.addAll(List.of(extraArguments));
        return new AgentProcess(TestJvm.startJarOn(host, dataDir.resolve("agent.log"), agentJar(), arguments));
    }

    /** A new agent token for {@code agentId}, made by a global admin. */
    public static String tokenFor(TrainyardClient admin, String agentId) {
        try {
            return admin.agentTokens().createAgentToken(new NewAgentToken().agentId(agentId)).getToken();
        } catch (ApiException e) {
            throw new AssertionError("could not create a token for agent " + agentId + ": " + e.getCode() + " " + e.getResponseBody(), e);
        }
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

    public long pid() {
        return process.pid();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        process.waitFor();
    }
}

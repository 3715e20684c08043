package io.trainyard.testing;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** An agent in its own JVM ({@code AgentMain}), reporting to a test server with a simulated inventory. */
public final class AgentProcess implements AutoCloseable {

    public static final String TOKEN = "test-agent-token";
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
        return new AgentProcess(TestJvm.start(dataDir.resolve("agent.log"), "io.trainyard.backend.local.agent.AgentMain", arguments));
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

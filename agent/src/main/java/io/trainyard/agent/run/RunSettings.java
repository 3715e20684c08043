package io.trainyard.agent.run;

import java.nio.file.Path;
import java.time.Duration;

import io.trainyard.agent.sandbox.TrainerSandbox;
import io.trainyard.agent.system.HostMonitor;
import io.trainyard.agent.trainer.TrainerInvocation;

/**
 * How this agent runs trainers.
 *
 * @param agentId the agent's name in the pool, for messages
 * @param dataDir where the jobs' work folders live
 * @param invocation builds each trainer's argv and environment (rendezvous address, trainer PATH)
 * @param cancelGracePeriod time between SIGTERM and SIGKILL when a run is cancelled or times out
 * @param maxLogBacklogBytes how far reading one output file may fall behind it (while the server is away)
 *     before the oldest unread part is skipped, with a marker line saying so
 * @param sandbox what shuts the trainers off from the agent, the server and other jobs
 * @param monitor samples the host's GPUs; how often runs' usage is sampled
 */
public record RunSettings(String agentId, Path dataDir, TrainerInvocation invocation, Duration cancelGracePeriod,
        long maxLogBacklogBytes, TrainerSandbox sandbox, HostMonitor monitor) {

    /** Appended to a launch error: the PATH the agent started the trainer with, and how to change it. */
    String launchErrorHint() {
        return " (agent " + agentId + " starts trainers with PATH=" + invocation.path() + "; put the trainer's "
                + "environment first with the agent's --trainer-path, trainyard.local.trainer-path for the server's own agent)";
    }
}

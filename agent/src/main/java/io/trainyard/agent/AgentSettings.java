package io.trainyard.agent;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.trainyard.agent.run.RunSettings;
import io.trainyard.agent.sandbox.TrainerAccount;
import io.trainyard.agent.sandbox.TrainerIsolation;
import io.trainyard.agent.system.HostMonitor;
import io.trainyard.agent.system.NvidiaSmi;
import io.trainyard.agent.trainer.TrainerInvocation;
import io.trainyard.protocol.Gpu;

/**
 * How an agent runs: its name and host, where its jobs' folders live, its inventory, and how it runs trainers.
 *
 * @param agentId the agent's name in the pool; the node id that jobs placed on it carry
 * @param gpus this host's GPUs (from {@code nvidia-smi}, or simulated for tests); none: it offers CPU slots
 * @param cpuSlots trainer processes it runs at once when it has no GPUs
 * @param python the Python that runs the per-process supervisor (stdlib only)
 * @param cancelGracePeriod time between SIGTERM and SIGKILL when a run is cancelled or times out
 * @param masterAddr the torch.distributed rendezvous address given to a job's processes
 * @param maxLogBacklogBytes how far reading one output file may fall behind it (while the server is
 *     away) before the oldest unread part is skipped, with a marker line saying so
 * @param trainerPath folders put first on the trainers' PATH (the environment trainers run in)
 * @param isolation how trainers are shut off from the agent, the server and other jobs
 * @param trainerAccount the identity trainers run as when the agent is root
 * @param hiddenFiles secret files of this host no trainer may read (e.g. the server's TLS key)
 * @param nvidiaSmi how the GPUs' usage is sampled; null where there is nothing to sample (no GPUs, or simulated ones)
 * @param systemMetricsInterval how often each run's usage (GPUs, CPU, memory, I/O) is sampled
 */
public record AgentSettings(String agentId, String host, Path dataDir, List<Gpu> gpus,
        int cpuSlots, String python, Duration cancelGracePeriod, String masterAddr, long maxLogBacklogBytes,
        List<Path> trainerPath, TrainerIsolation isolation, TrainerAccount trainerAccount, List<Path> hiddenFiles,
        String nvidiaSmi, Duration systemMetricsInterval) {

    /** @throws IllegalStateException when trainers cannot be sandboxed here as {@code isolation} asks */
    RunSettings runSettings() {
        return new RunSettings(agentId, dataDir, new TrainerInvocation(masterAddr, trainerPath), cancelGracePeriod,
                maxLogBacklogBytes, isolation.sandbox(dataDir, trainerAccount, trainerPath, hiddenFiles),
                new HostMonitor(nvidiaSmi == null || gpus.isEmpty() ? null : new NvidiaSmi(nvidiaSmi), systemMetricsInterval));
    }
}

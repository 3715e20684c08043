package io.trainyard.api.agents;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.trainyard.backend.local.agents.AgentState;

/** A host of the pool: its inventory, what is in use and by which jobs, and its lease. */
public record AgentView(
        String id,
        String host,
        AgentState state,
        long epoch,
        List<GpuView> gpus,
        int cpuSlots,
        int cpuSlotsUsed,
        List<RunningJob> runningJobs,
        Instant registeredAt,
        Instant lastHeartbeatAt,
        Instant leaseExpiresAt) {

    /** A GPU and the job holding it (null when free). */
    public record GpuView(int index, String model, long memoryMiB, UUID jobId) {
    }

    public record RunningJob(UUID id, String jobName, int workers) {
    }
}

package io.trainyard.backend.local.web;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;
import io.trainyard.backend.local.agents.AgentState;
import org.jspecify.annotations.Nullable;

/** A host of the pool: its inventory, what is in use and by which jobs, its lease and the last outage that extended it. */
@Schema(name = "Agent")
public record AgentView(
        String id,
        String host,
        AgentState state,
        long epoch,
        List<GpuView> gpus,
        int cpuSlots,
        int cpuSlotsUsed,
        List<RunningJob> runningJobs,
        @Nullable Instant registeredAt,
        @Nullable Instant lastHeartbeatAt,
        @Nullable Instant leaseExpiresAt,
        @Nullable DatabaseOutage lastDatabaseOutage,
        @Schema(description = "When its GPUs were last sampled (their live utilisation, memory, power and temperature); "
                + "null if its agent does not sample them (no GPUs, or simulated ones)")
        @Nullable Instant gpusSampledAt) {

    /**
     * The last time a replica could not reach the database while this agent was active: its lease was pushed
     * out by one lease when the replica got the database back (times on that replica's clock).
     */
    @Schema(name = "AgentDatabaseOutage")
    public record DatabaseOutage(Instant lostAt, Instant backAt, String seenBy) {
    }

    /**
     * A GPU, whether a job holds it, and which (null when free, or held by a job of another project); what it was
     * doing at the last sample (each null when not sampled, or not reported by the board).
     */
    @Schema(name = "AgentGpu")
    public record GpuView(int index, String model, long memoryMiB, boolean inUse, @Nullable UUID jobId,
            @Nullable Double utilizationPercent, @Nullable Long memoryUsedMiB, @Nullable Double powerWatts,
            @Nullable Double temperatureCelsius) {
    }

    /** A job on the agent; its id and name are null when it belongs to a project the caller may not see. */
    @Schema(name = "AgentJob")
    public record RunningJob(@Nullable UUID id, @Nullable String jobName, int workers) {
    }
}

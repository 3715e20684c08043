package io.trainyard.protocol;

import java.util.List;
import java.util.UUID;

import jakarta.validation.constraints.NotNull;

/**
 * Renews the lease and asks for work.
 *
 * @param running the jobs whose runs the agent has (so they are not handed out again)
 * @param cancelling those of them it is already stopping (so a cancel is not sent again)
 * @param gpus what the host's GPUs were doing at its last sample, when no heartbeat carried that sample yet (null:
 *     nothing new, or the agent does not sample them; the server keeps the last it got)
 */
public record Heartbeat(long epoch, @NotNull List<@NotNull UUID> running, @NotNull List<@NotNull UUID> cancelling,
        List<@NotNull GpuSample> gpus) {
}

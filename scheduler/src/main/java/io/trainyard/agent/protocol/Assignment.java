package io.trainyard.agent.protocol;

import java.util.UUID;

import io.trainyard.job.TrainerImages;
import io.trainyard.placement.Placement;

/**
 * A run to start: the job's frozen configs, where its workers go on this agent, and the trainer images with
 * the server's defaults already applied.
 */
public record Assignment(UUID jobId, int attempt, String jobName, String taskConfig, String resourceConfig,
        Placement placement, int workers, long timeoutSeconds, TrainerImages images) {
}

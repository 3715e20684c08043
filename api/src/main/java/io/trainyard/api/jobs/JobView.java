package io.trainyard.api.jobs;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import io.swagger.v3.oas.annotations.media.Schema;
import io.trainyard.job.FailureCause;
import io.trainyard.job.Job;
import io.trainyard.job.JobState;
import io.trainyard.job.Placement;
import org.jspecify.annotations.Nullable;

/**
 * A job as the API shows it.
 *
 * @param links where to look at the run outside Trainyard, by kind (for Vertex AI: {@code vertexConsole},
 *     {@code tensorboard}); empty when there is nothing to link
 * @param queuePosition for a queued job, its place in its backend's dispatch order (1: taken next), counting every
 *     queued job ahead of it, those of projects the caller may not see included; else null, and null in a
 *     submission's answer (the queue is replayed at most once a second; {@code GET /jobs/{id}} shows it)
 * @param waitingReason for a queued job, why it is not running yet (a job it waits behind is named only to those
 *     who may see it); for a starting job that its backend queues itself, the backend's reason (e.g.
 *     {@code Slurm: Resources}); else null
 */
@Schema(name = "Job")
public record JobView(
        UUID id,
        String project,
        String jobName,
        JobState state,
        String backend,
        int priority,
        Map<String, String> labels,
        int attempt,
        @Nullable FailureCause failureCause,
        @Nullable String failureMessage,
        @Nullable Integer exitCode,
        int workers,
        boolean requireGpus,
        long timeoutSeconds,
        @Nullable String node,
        @Nullable Placement placement,
        Map<String, String> outputs,
        Map<String, String> links,
        @Nullable String taskConfigSource,
        @Nullable String resourceConfigSource,
        @Nullable String submittedBy,
        Instant createdAt,
        Instant queuedAt,
        @Nullable Instant startedAt,
        @Nullable Instant finishedAt,
        Instant updatedAt,
        @Nullable Integer queuePosition,
        @Nullable String waitingReason) {

    static JobView of(Job job, Map<String, String> links, @Nullable Integer queuePosition, @Nullable String waitingReason) {
        return new JobView(job.getId(), job.getProject(), job.getJobName(), job.getState(), job.getBackend(), job.getPriority(),
                job.getLabels(), job.getAttempt(), job.getFailureCause(), job.getFailureMessage(), job.getExitCode(),
                job.getSlots(), job.isRequireGpus(), job.getTimeoutSeconds(), job.getNodeId(),
                job.getPlacement(), job.getOutputs(), links,
                job.getTaskConfigSource(), job.getResourceConfigSource(), job.getSubmittedBy(), job.getCreatedAt(), job.getQueuedAt(),
                job.getStartedAt(), job.getFinishedAt(), job.getUpdatedAt(),
                queuePosition, waitingReason);
    }
}

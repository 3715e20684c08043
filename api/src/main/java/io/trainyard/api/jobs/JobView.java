package io.trainyard.api.jobs;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import io.trainyard.job.FailureCause;
import io.trainyard.job.Job;
import io.trainyard.job.JobState;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A job as the API shows it. */
public record JobView(
        UUID id,
        String jobName,
        JobState state,
        String backend,
        int priority,
        Map<String, String> labels,
        int attempt,
        FailureCause failureCause,
        String failureMessage,
        Integer exitCode,
        int workers,
        boolean requireGpus,
        long timeoutSeconds,
        String node,
        JsonNode placement,
        Map<String, String> outputs,
        String taskConfigSource,
        String resourceConfigSource,
        Instant createdAt,
        Instant queuedAt,
        Instant startedAt,
        Instant finishedAt,
        Instant updatedAt) {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    static JobView of(Job job) {
        return new JobView(job.getId(), job.getJobName(), job.getState(), job.getBackend(), job.getPriority(),
                job.getLabels(), job.getAttempt(), job.getFailureCause(), job.getFailureMessage(), job.getExitCode(),
                job.getSlots(), job.isRequireGpus(), job.getTimeoutSeconds(), job.getNodeId(),
                job.getPlacement() == null ? null : JSON.readTree(job.getPlacement()), job.getOutputs(),
                job.getTaskConfigSource(), job.getResourceConfigSource(), job.getCreatedAt(), job.getQueuedAt(),
                job.getStartedAt(), job.getFinishedAt(), job.getUpdatedAt());
    }
}

package io.trainyard.job;

import java.util.Map;

/**
 * What a client submits. Each config is given inline (YAML text) or as a URI (a local path or
 * {@code file://}); {@code gs://} needs the Vertex AI backend.
 *
 * @param gpus the GPUs a local job takes, one worker process each on one host, instead of
 *     {@code localTrainerConfig.numWorkers}; implies {@code requireGpus}
 * @param requireGpus every worker must get a GPU; on a pool that can never offer enough the job fails
 *     at once with cause NO_CAPACITY instead of running on CPU slots
 * @param timeoutSeconds overrides the resource config's timeout and the server default
 * @param retryPolicy how often a job failed by the infrastructure is tried again (default: never)
 * @param cpuDockerUri the trainer image for pools without GPUs, instead of the server's default
 * @param cudaDockerUri the trainer image for pools with GPUs, instead of the server's default
 */
public record JobSubmission(
        String jobName,
        String taskConfig,
        String taskConfigUri,
        String resourceConfig,
        String resourceConfigUri,
        Map<String, String> labels,
        Integer priority,
        Integer gpus,
        Boolean requireGpus,
        Long timeoutSeconds,
        RetryPolicy retryPolicy,
        String cpuDockerUri,
        String cudaDockerUri) {

    /**
     * @param maxAttempts attempts in all, 1 to 10; a failure with cause INFRASTRUCTURE or CONTROL_PLANE
     *     starts the next one
     * @param backoffSeconds wait before the second attempt, doubled for each later one (default 30)
     */
    public record RetryPolicy(Integer maxAttempts, Integer backoffSeconds) {
    }
}

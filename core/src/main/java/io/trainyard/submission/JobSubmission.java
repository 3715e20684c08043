package io.trainyard.submission;

import java.util.Map;

import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * What a client submits ({@code POST /jobs}). Each config is given inline (YAML text) or as a URI (a local
 * path or {@code file://}); {@code gs://} needs the Vertex AI backend.
 */
@NullMarked
@Schema(description = "A GiGL trainer job: a job name, a frozen task config and a resource config, each inline or by URI")
public record JobSubmission(
        @Schema(description = "The project the job belongs to (default: default); submitting needs the editor role there")
        @Nullable String project,
        @Schema(description = "The backend that runs the job, one of GET /backends (default: the first that runs the "
                + "resource config's trainerResourceConfig kind)", example = "local")
        @Nullable String backend,
        @Schema(description = "GiGL's AppliedTaskIdentifier, passed to the trainer as --job_name; GiGL's rule: a lowercase "
                + "letter, then lowercase letters, digits or '_', ending in a letter or digit, at most 51 characters",
                example = "cora_link_prediction", pattern = "^" + JobSubmission.JOB_NAME + "$", maxLength = 51)
        String jobName,
        @Schema(description = "The GbmlConfig as YAML text (camelCase or snake_case keys), frozen or a template whose unset "
                + "trainedModelMetadata URIs are filled as GiGL's config populator fills them")
        @Nullable String taskConfig,
        @Schema(description = "Absolute local path or file:// URI of the task config (instead of taskConfig)")
        @Nullable String taskConfigUri,
        @Schema(description = "The GiglResourceConfig as YAML text")
        @Nullable String resourceConfig,
        @Schema(description = "Absolute local path or file:// URI of the resource config (instead of resourceConfig)")
        @Nullable String resourceConfigUri,
        @Schema(description = "Labels to filter jobs by (lowercase keys and values)")
        @Nullable Map<String, String> labels,
        @Schema(description = "Higher runs first; -1000 to 1000, default 0", minimum = "-" + JobSubmission.MAX_PRIORITY,
                maximum = "" + JobSubmission.MAX_PRIORITY)
        @Nullable Integer priority,
        @Schema(description = "GPUs the job takes (1-64), one worker process each; overrides localTrainerConfig.numWorkers "
                + "and implies requireGpus. For the backends that take a GPU count (GET /backends: gpus)",
                minimum = "1", maximum = "" + JobSubmission.MAX_GPUS)
        @Nullable Integer gpus,
        @Schema(description = "Hosts to spread the workers (gpus, else localTrainerConfig.numWorkers) over, evenly (1-256). "
                + "For the backends that run a job across hosts (GET /backends: nodes); the others take 1 at most",
                minimum = "1", maximum = "" + JobSubmission.MAX_NODES)
        @Nullable Integer nodes,
        @Schema(description = "Fail at once (no capacity) instead of running on CPU slots when GPUs are short")
        @Nullable Boolean requireGpus,
        @Schema(description = "Stop the job after this many seconds (at most 30 days); default from the resource config or the "
                + "server", minimum = "1", maximum = "" + JobSubmission.MAX_TIMEOUT_SECONDS)
        @Nullable Long timeoutSeconds,
        @Schema(description = "Attempts in all (1-10, default 3) when the infrastructure fails the job (lost host, lost run), "
                + "with a backoff in seconds doubled for each attempt (default 30); maxAttempts 1 never retries")
        @Nullable RetryPolicy retryPolicy,
        @Schema(description = "The trainer image for pools without GPUs (GiGL's --cpu_docker_uri), instead of the server's default")
        @Nullable String cpuDockerUri,
        @Schema(description = "The trainer image for pools with GPUs (GiGL's --cuda_docker_uri), instead of the server's default")
        @Nullable String cudaDockerUri) {

    /**
     * @param maxAttempts attempts in all, 1 to 10 (default 3); a failure with cause INFRASTRUCTURE or
     *     CONTROL_PLANE starts the next one
     * @param backoffSeconds wait before the second attempt, doubled for each later one (default 30)
     */
    public record RetryPolicy(
            @Schema(minimum = "1", maximum = "" + MAX_ATTEMPTS) @Nullable Integer maxAttempts,
            @Schema(minimum = "0", maximum = "" + MAX_BACKOFF_SECONDS) @Nullable Integer backoffSeconds) {
    }

    // The limits the server enforces, which the API document states too (generated clients know them).
    /** GiGL's job-name rule (its validator's name check): the name becomes cluster, path and label parts. */
    static final String JOB_NAME = "[a-z](?:[_a-z0-9]{0,49}[a-z0-9])?";
    static final int MAX_PRIORITY = 1000;
    /**
     * One worker per GPU: a bound well above any host, so a typo cannot ask for thousands. It bounds a Slurm job spread
     * over {@code nodes} hosts too (64 GPUs in all).
     */
    static final int MAX_GPUS = 64;
    static final int MAX_NODES = 256;
    static final long MAX_TIMEOUT_SECONDS = 30L * 24 * 3600;
    static final int MAX_ATTEMPTS = 10;
    static final int MAX_BACKOFF_SECONDS = 86_400;
}

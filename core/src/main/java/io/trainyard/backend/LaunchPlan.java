package io.trainyard.backend;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * What a backend would launch for a job, as a dry run answers it.
 *
 * @param placement where the workers would run (host, GPUs or CPU slots)
 * @param workDir the job's work folder, where frozen configs and process logs are written
 * @param customJobRequest for Vertex AI, the exact CustomJob request (the JSON form of its proto); absent
 *     for other backends
 * @param batchScript for Slurm, the exact batch script given to {@code sbatch}, options included; absent for other
 *     backends
 */
@NullMarked
public record LaunchPlan(String backend, Map<String, Object> placement, @Nullable String workDir, List<Worker> workers,
        @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Map<String, Object> customJobRequest,
        @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String batchScript) {

    public LaunchPlan(String backend, Map<String, Object> placement, @Nullable String workDir, List<Worker> workers) {
        this(backend, placement, workDir, workers, null, null);
    }

    /** One trainer process: its argv (never run through a shell) and the environment it adds. */
    @Schema(name = "LaunchWorker")
    public record Worker(int rank, List<String> argv, Map<String, String> environment) {
    }
}

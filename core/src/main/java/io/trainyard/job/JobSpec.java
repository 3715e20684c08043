package io.trainyard.job;

import java.util.Map;

import io.trainyard.gigl.ResourceConfig;
import io.trainyard.gigl.TaskConfig;
import io.trainyard.launch.TrainerImages;

/**
 * A validated submission, from which a {@link Job} is made: the frozen config texts exactly as submitted,
 * their typed reading, and the server-side settings.
 *
 * @param slots how many worker processes (each a GPU or a CPU slot) the job takes at once
 * @param nodes the hosts the submission asked the workers to be spread over, evenly; 0: the backend decides
 */
public record JobSpec(
        String jobName,
        String backend,
        String project,
        TaskConfig task,
        ResourceConfig resource,
        String taskConfigYaml,
        String resourceConfigYaml,
        String taskConfigSource,
        String resourceConfigSource,
        Map<String, String> labels,
        int priority,
        boolean requireGpus,
        long timeoutSeconds,
        int slots,
        int nodes,
        int maxAttempts,
        int retryBackoffSeconds,
        TrainerImages images) {
}

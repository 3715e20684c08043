package io.trainyard.job;

import java.util.Map;

import io.trainyard.gigl.ResourceConfig;
import io.trainyard.gigl.ResourceConfigReader;
import io.trainyard.gigl.TaskConfig;
import io.trainyard.gigl.TaskConfigReader;

/**
 * A validated job: the frozen config texts exactly as submitted, their typed reading, and the server-side
 * settings. Built once at submission and again from the stored job when it is dispatched.
 *
 * @param slots how many worker processes (each a GPU or a CPU slot) the job takes at once
 */
public record JobSpec(
        String jobName,
        String backend,
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
        int maxAttempts,
        int retryBackoffSeconds,
        TrainerImages images) {

    /** Reads a stored job's configs back; they were valid when it was submitted. */
    public static JobSpec of(Job job) {
        return new JobSpec(job.getJobName(), job.getBackend(),
                TaskConfigReader.read("taskConfig", job.getTaskConfig()),
                ResourceConfigReader.read("resourceConfig", job.getResourceConfig()),
                job.getTaskConfig(), job.getResourceConfig(), job.getTaskConfigSource(),
                job.getResourceConfigSource(), job.getLabels(), job.getPriority(), job.isRequireGpus(),
                job.getTimeoutSeconds(), job.getSlots(), job.getMaxAttempts(), job.getRetryBackoffSeconds(),
                new TrainerImages(job.getCpuDockerUri(), job.getCudaDockerUri()));
    }
}

package io.trainyard.job;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import io.trainyard.gigl.ResourceConfigReader;
import io.trainyard.gigl.TaskConfigReader;
import io.trainyard.testing.JobBodies;

/** Jobs for the domain's tests, as a submission makes them (shared with the backends' tests in the test jar). */
public final class TestJobs {

    private TestJobs() {
    }

    /** A valid job of {@code workers} trainer processes on {@code backend}, not stored yet. */
    public static Job job(String name, String backend, int workers, int maxAttempts) {
        String task = JobBodies.taskConfig("print('hello')", "outputs/model.pt");
        String resource = JobBodies.RESOURCE_CONFIG.formatted(workers);
        JobSpec spec = new JobSpec(name, backend, "default", TaskConfigReader.read("taskConfig", task),
                ResourceConfigReader.read("resourceConfig", resource), task, resource, null, null, Map.of(), 0, false,
                3600, workers, maxAttempts, 0, TrainerImages.SERVER_DEFAULTS);
        return new Job(UUID.randomUUID(), spec, "tester", null, null, Instant.now());
    }
}

package io.trainyard.job;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.trainyard.gigl.ResourceConfigReader;
import io.trainyard.gigl.TaskConfigReader;
import io.trainyard.launch.TrainerImages;
import io.trainyard.testing.JobBodies;

/** Jobs for the domain's tests, as a submission makes them (shared with the backends' tests in the test jar). */
public final class TestJobs {

    /** For configs that name their shared resource config inline: a URI is a test's mistake. */
    public static final ResourceConfigReader.SharedConfigFetcher NO_SHARED_CONFIG_URIS = (field, uri) -> {
        throw new AssertionError(field + " names " + uri + "; the tests' configs name their shared resource config inline");
    };

    private TestJobs() {
    }

    /** An agent's placement as the local backend stores it: its workers on CPU slots of {@code node}. */
    public static Placement onCpu(String node, int cpuSlots) {
        return Placement.of("agent", Map.of("node", node, "device", "cpu", "gpus", List.of(), "cpuSlots", cpuSlots));
    }

    /** A valid job of {@code workers} trainer processes on {@code backend}, not stored yet. */
    public static Job job(String name, String backend, int workers, int maxAttempts) {
        return job(name, backend, workers, maxAttempts, JobBodies.taskConfig("print('hello')", "outputs/model.pt"));
    }

    /** The same with a task config of the test's own. */
    public static Job job(String name, String backend, int workers, int maxAttempts, String task) {
        String resource = JobBodies.RESOURCE_CONFIG.formatted(workers);
        JobSpec spec = new JobSpec(name, backend, "default", TaskConfigReader.read("taskConfig", task),
                ResourceConfigReader.read("resourceConfig", resource, NO_SHARED_CONFIG_URIS), task, resource, null, null, Map.of(), 0, false,
                3600, workers, 0, maxAttempts, 0, TrainerImages.SERVER_DEFAULTS);
        return new Job(UUID.randomUUID(), spec, "tester", null, null, Instant.now());
    }
}

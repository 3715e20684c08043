package io.trainyard.gigl;

import java.util.ArrayList;
import java.util.List;

import io.trainyard.validation.Violation;

/**
 * GiGL's checks between a task config and a resource config: graph-store mode is set in both or in neither
 * (its validator's trainer graph-store compatibility check), a graph-store job names what its storage pool
 * runs, and only the in-memory trainer launches graph-store jobs (the legacy trainer refuses them).
 */
public final class GiglCompatibility {

    private static final String STORAGE_CONFIG = "taskConfig.trainerConfig.graphStoreStorageConfig";

    private GiglCompatibility() {
    }

    /** Every mismatch between the two configs, each on the field that would have to change; empty if none. */
    public static List<Violation> check(TaskConfig task, ResourceConfig resource) {
        List<Violation> violations = new ArrayList<>();
        boolean taskHasGraphStore = task.graphStoreStorage() != null;
        boolean resourceHasGraphStore = resource.trainer() instanceof TrainerResource.VertexAiGraphStore;
        if (taskHasGraphStore && !resourceHasGraphStore && resource.trainer() != null) {
            violations.add(new Violation(STORAGE_CONFIG, "is set, so GiGL launches a graph-store job, but "
                    + "resourceConfig.trainerResourceConfig is " + resource.trainer().kind()
                    + ": it must be vertexAiGraphStoreTrainerConfig, or this section removed"));
        }
        if (resourceHasGraphStore && !taskHasGraphStore) {
            violations.add(new Violation(STORAGE_CONFIG, "is required by resourceConfig.trainerResourceConfig"
                    + ".vertexAiGraphStoreTrainerConfig: it is what the graph-store pool runs"));
        }
        if (taskHasGraphStore && resourceHasGraphStore) {
            String command = task.graphStoreStorage().command();
            if (command == null || command.isBlank()) {
                violations.add(new Violation(STORAGE_CONFIG + ".command", "is required: it is what the graph-store pool runs"));
            }
            if (!task.shouldRunGltBackend()) {
                violations.add(new Violation("taskConfig.featureFlags.should_run_glt_backend", "must be True for a "
                        + "vertexAiGraphStoreTrainerConfig job: GiGL's legacy trainer launches single-pool jobs only"));
            }
        }
        return violations;
    }
}

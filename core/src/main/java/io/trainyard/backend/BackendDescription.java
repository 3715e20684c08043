package io.trainyard.backend;

import java.util.List;

/**
 * What a backend is and can run, as it declares it: the server lists it ({@code GET /backends}), picks a backend
 * for a submission by it, and describes its jobs' placements in the API document by it.
 *
 * @param name the name stored on jobs and accepted as a submission's {@code backend}, e.g. {@code local}
 * @param description one line for people
 * @param resourceConfigs the GiGL {@code trainerResourceConfig} kinds it runs, e.g. {@code localTrainerConfig}
 * @param gpuRequests jobs may ask it for GPUs by count (a submission's {@code gpus} and {@code requireGpus});
 *     otherwise a job's machines come from its resource config
 * @param multiHost jobs may ask it to spread their workers over several hosts (a submission's {@code nodes})
 * @param partitions it submits to a cluster whose partitions it reads ({@link Backend#partitions})
 * @param placementKind the {@code kind} tag of its jobs' placements
 * @param placementType the rest of its placements: a record, serialised with Jackson and described in the API
 *     document under its schema name
 * @param links the names of the links its jobs have ({@link Backend#links}), e.g. {@code tensorboard}
 */
public record BackendDescription(String name, String description, List<String> resourceConfigs, boolean gpuRequests,
        boolean multiHost, boolean partitions, String placementKind, Class<?> placementType, List<String> links) {

    public BackendDescription {
        resourceConfigs = List.copyOf(resourceConfigs);
        links = List.copyOf(links);
    }
}

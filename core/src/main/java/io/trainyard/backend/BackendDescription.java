package io.trainyard.backend;

import java.util.List;
import java.util.stream.Stream;

/**
 * What a backend is and can run, as it declares it: the server lists it ({@code GET /backends}), picks a backend
 * for a submission by it, and describes its jobs' placements in the API document by it.
 *
 * @param name the name stored on jobs and accepted as a submission's {@code backend}, e.g. {@code local}
 * @param description one line for people
 * @param resourceConfigs the GiGL {@code trainerResourceConfig} kinds it is made for, e.g. {@code localTrainerConfig}
 * @param standsInFor kinds another backend is made for that it runs too: when a submission names it, or when no
 *     backend made for them is on (the local pool runs Vertex AI's graph-store configs)
 * @param gpuRequests jobs may ask it for GPUs by count (a submission's {@code gpus} and {@code requireGpus});
 *     otherwise a job's machines come from its resource config
 * @param multiHost jobs may ask it to spread their workers over several hosts (a submission's {@code nodes})
 * @param partitions it submits to a cluster whose partitions it reads ({@link Backend#partitions})
 * @param placementKind the {@code kind} tag of its jobs' placements
 * @param placementType the rest of its placements: a record, serialised with Jackson and described in the API
 *     document under its schema name
 * @param links the names of the links its jobs have ({@link Backend#links}), e.g. {@code tensorboard}
 */
public record BackendDescription(String name, String description, List<String> resourceConfigs, List<String> standsInFor,
        boolean gpuRequests, boolean multiHost, boolean partitions, String placementKind, Class<?> placementType,
        List<String> links) {

    public BackendDescription {
        resourceConfigs = List.copyOf(resourceConfigs);
        standsInFor = List.copyOf(standsInFor);
        links = List.copyOf(links);
    }

    /** A backend that runs only the kinds it is made for. */
    public BackendDescription(String name, String description, List<String> resourceConfigs, boolean gpuRequests,
            boolean multiHost, boolean partitions, String placementKind, Class<?> placementType, List<String> links) {
        this(name, description, resourceConfigs, List.of(), gpuRequests, multiHost, partitions, placementKind, placementType, links);
    }

    /** Every kind it runs: those it is made for, then those it stands in for. */
    public List<String> runs() {
        return Stream.concat(resourceConfigs.stream(), standsInFor.stream()).toList();
    }
}

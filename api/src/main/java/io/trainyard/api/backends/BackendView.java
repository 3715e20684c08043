package io.trainyard.api.backends;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;
import io.trainyard.backend.BackendDescription;

/** A backend of this server, as {@code GET /backends} lists it. */
@Schema(name = "Backend", description = "A backend of this server: what it runs and what its jobs get")
public record BackendView(
        @Schema(description = "The name stored on jobs (job.backend) and accepted as a submission's backend", example = "local")
        String name,
        @Schema(description = "What it is, for people")
        String description,
        @Schema(description = "The GiGL trainerResourceConfig kinds it runs: those it is made for, then those it runs when "
                + "named or when no backend made for them is on", example = "[\"localTrainerConfig\"]")
        List<String> resourceConfigs,
        @Schema(description = "Jobs may ask it for GPUs by count (a submission's gpus and requireGpus); otherwise "
                + "a job's machines come from its resource config")
        boolean gpus,
        @Schema(description = "Jobs may ask it to spread their workers over several hosts (a submission's nodes)")
        boolean nodes,
        @Schema(description = "It submits to a cluster whose partitions GET /backends/{name}/partitions lists")
        boolean partitions,
        @Schema(description = "The kind tag of its jobs' placements (job.placement.kind)", example = "agent")
        String placement,
        @Schema(description = "The names of the links its jobs have (job.links)", example = "[\"tensorboard\"]")
        List<String> links) {

    static BackendView of(BackendDescription description) {
        return new BackendView(description.name(), description.description(), description.runs(),
                description.gpuRequests(), description.multiHost(), description.partitions(), description.placementKind(), description.links());
    }
}

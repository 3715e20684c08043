package io.trainyard.backend.slurm;

import io.swagger.v3.oas.annotations.media.Schema;
import io.trainyard.job.Placement;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/** Where a job of the Slurm backend runs: a partition of the cluster, in a shape of nodes and tasks. */
@NullMarked
@Schema(name = "OnSlurm", description = "A Slurm batch job: its partition and shape (the nodes Slurm picks show in the "
        + "job's run state once it runs)")
public record SlurmPlacement(@Nullable String partition, int nodes, int tasksPerNode, int gpusPerNode) {

    public static final String KIND = "slurm";

    public Placement tagged() {
        return Placement.of(KIND, this);
    }
}

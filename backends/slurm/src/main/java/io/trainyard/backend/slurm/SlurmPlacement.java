package io.trainyard.backend.slurm;

import io.swagger.v3.oas.annotations.media.Schema;
import io.trainyard.job.Placement;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * Where a job of the Slurm backend runs: a partition of the cluster, in a shape of nodes and tasks; once Slurm runs it,
 * also its Slurm job id and the hosts it picked.
 */
@NullMarked
@Schema(name = "OnSlurm", description = "A Slurm batch job: its partition and shape, and once it runs its Slurm job id and hosts")
public record SlurmPlacement(
        @Nullable String partition,
        int nodes,
        int tasksPerNode,
        int gpusPerNode,
        @Schema(description = "The Slurm job id of the running attempt (for squeue, sacct, scontrol); none before it runs")
        @Nullable Long slurmJobId,
        @Schema(description = "The hosts Slurm allocated, as it writes them (e.g. node[1-2]); none before it runs")
        @Nullable String hosts) {

    public static final String KIND = "slurm";

    /** Before Slurm has the job: the partition and shape. */
    SlurmPlacement(@Nullable String partition, int nodes, int tasksPerNode, int gpusPerNode) {
        this(partition, nodes, tasksPerNode, gpusPerNode, null, null);
    }

    /** The same, running as Slurm job {@code slurmJobId} on {@code hosts}. */
    SlurmPlacement running(long slurmJobId, String hosts) {
        return new SlurmPlacement(partition, nodes, tasksPerNode, gpusPerNode, slurmJobId, hosts);
    }

    public Placement tagged() {
        return Placement.of(KIND, this);
    }
}

package io.trainyard.api.backends;

import java.time.Instant;
import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;
import io.trainyard.backend.Partition;
import io.trainyard.backend.PartitionReading;
import org.jspecify.annotations.Nullable;

/** A backend's cluster partitions, as {@code GET /backends/{name}/partitions} answers them. */
@Schema(name = "BackendPartitions", description = "The partitions of the cluster a backend submits to (Slurm's sinfo), and "
        + "what of each node is in use, as read a few seconds ago at most")
public record PartitionsView(
        @Schema(example = "slurm")
        String backend,
        @Schema(description = "When the cluster answered this reading; absent while it never has (then partitions is empty)")
        @Nullable Instant readAt,
        List<PartitionView> partitions) {

    static PartitionsView of(String backend, @Nullable PartitionReading reading) {
        return reading == null ? new PartitionsView(backend, null, List.of())
                : new PartitionsView(backend, reading.readAt(), reading.partitions().stream().map(PartitionView::of).toList());
    }

    @Schema(name = "Partition", description = "A partition, its nodes and the totals over them")
    public record PartitionView(
            @Schema(example = "gpu")
            String name,
            @Schema(description = "Jobs that name no partition go here")
            boolean isDefault,
            int cpus,
            int cpusAllocated,
            int gpus,
            @Schema(description = "GPUs allocated to jobs (of anyone, not only Trainyard's)")
            int gpusUsed,
            List<NodeView> nodes) {

        static PartitionView of(Partition partition) {
            List<Partition.Node> nodes = partition.nodes();
            return new PartitionView(partition.name(), partition.isDefault(), nodes.stream().mapToInt(Partition.Node::cpus).sum(),
                    nodes.stream().mapToInt(Partition.Node::cpusAllocated).sum(), nodes.stream().mapToInt(Partition.Node::gpus).sum(),
                    nodes.stream().mapToInt(Partition.Node::gpusUsed).sum(), nodes.stream().map(NodeView::of).toList());
        }
    }

    @Schema(name = "PartitionNode", description = "A node of a partition (a node in two partitions is listed in both)")
    public record NodeView(
            @Schema(example = "gpu-017")
            String name,
            @Schema(description = "As the cluster names it: idle, mixed, allocated, down, drained…; a * marks a node not answering",
                    example = "mixed")
            String state,
            int cpus,
            int cpusAllocated,
            int gpus,
            int gpusUsed) {

        static NodeView of(Partition.Node node) {
            return new NodeView(node.name(), node.state(), node.cpus(), node.cpusAllocated(), node.gpus(), node.gpusUsed());
        }
    }
}

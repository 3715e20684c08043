package io.trainyard.backend.slurm;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import io.trainyard.backend.Partition;
import io.trainyard.backend.PartitionReading;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster's nodes by partition, as {@code sinfo} lists them, read when needed and kept for {@link #KEPT}.
 * <ul>
 *   <li>A job larger than any allocation its partition can give is refused at submission with a 422, where
 *   {@code sbatch} would refuse it only at launch (a LAUNCH_ERROR). Every node counts whatever its state, as for
 *   {@code sbatch}: a node that is down may come back, and the job then waits for it. A controller that cannot be read
 *   checks nothing; {@code sbatch} keeps the last word.</li>
 *   <li>The Pool page shows each partition's nodes with their allocated CPUs and GPUs ({@link #reading}).</li>
 * </ul>
 */
final class SlurmPartitions {

    private static final Logger log = LoggerFactory.getLogger(SlurmPartitions.class);
    /**
     * How long a reading is used: fresh enough for the Pool page's GPUs in use, however many people look at it, and
     * one {@code sinfo} every few seconds at most is nothing to the controller.
     */
    static final Duration KEPT = Duration.ofSeconds(10);

    /**
     * A node in one partition (a node in two partitions is listed twice).
     *
     * @param inDefault the partition is the cluster's default, the one of jobs that name none
     * @param state Slurm's long form: {@code idle}, {@code mixed}, {@code allocated}, {@code down*}, …
     */
    record Node(String name, String partition, boolean inDefault, String state, int cpus, int cpusAllocated, int gpus, int gpusUsed) {
    }

    private final Supplier<List<Node>> sinfo;
    private List<Node> nodes;
    private Instant readAt = Instant.EPOCH;
    /** When the controller last answered; null: never. */
    private Instant answeredAt;

    SlurmPartitions(Supplier<List<Node>> sinfo) {
        this.sinfo = sinfo;
    }

    /**
     * How many nodes of {@code partition} (null: the cluster's default) can each hold one node's share of the
     * shape: its tasks, a CPU each, and its GPUs. Empty when the partition is not known (the cluster unreadable, a
     * partition of another name), so that the caller checks nothing.
     */
    synchronized OptionalInt fitting(String partition, BatchScript.Shape shape) {
        List<Node> known = current();
        List<Node> inPartition = known.stream()
                .filter(node -> partition == null ? node.inDefault() : node.partition().equals(partition))
                .toList();
        if (inPartition.isEmpty()) {
            return OptionalInt.empty();
        }
        return OptionalInt.of((int) inPartition.stream()
                .filter(node -> node.cpus() >= shape.tasksPerNode() && node.gpus() >= shape.gpusPerNode())
                .count());
    }

    /** The partitions and their nodes, in {@code sinfo}'s order, as last read; empty if the controller never answered. */
    synchronized Optional<PartitionReading> reading() {
        List<Node> known = current();
        if (answeredAt == null) {
            return Optional.empty();
        }
        Map<String, List<Node>> byPartition = known.stream().collect(Collectors.groupingBy(Node::partition, LinkedHashMap::new,
                Collectors.toList()));
        List<Partition> partitions = byPartition.values().stream()
                .map(inPartition -> new Partition(inPartition.getFirst().partition(), inPartition.getFirst().inDefault(),
                        inPartition.stream().map(node -> new Partition.Node(node.name(), node.state(), node.cpus(), node.cpusAllocated(),
                                node.gpus(), node.gpusUsed())).toList()))
                .toList();
        return Optional.of(new PartitionReading(answeredAt, partitions));
    }

    private List<Node> current() {
        Instant now = Instant.now();
        if (nodes == null || Duration.between(readAt, now).compareTo(KEPT) > 0) {
            try {
                nodes = sinfo.get();
                answeredAt = now;
            } catch (SlurmCommands.SlurmException e) {
                log.debug("The cluster's partitions could not be read; submissions are not checked against them: {}", e.getMessage());
                nodes = nodes == null ? List.of() : nodes;
            }
            readAt = now;
        }
        return nodes;
    }
}

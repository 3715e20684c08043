package io.trainyard.backend.slurm;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster's nodes by partition, as {@code sinfo} lists them, read when a submission is checked and kept for
 * {@link #KEPT}: a job larger than any allocation its partition can give is refused at submission with a 422,
 * where {@code sbatch} would refuse it only at launch (a LAUNCH_ERROR). Every node counts whatever its state, as
 * for {@code sbatch}: a node that is down may come back, and the job then waits for it. A controller that cannot
 * be read checks nothing; {@code sbatch} keeps the last word.
 */
final class SlurmPartitions {

    private static final Logger log = LoggerFactory.getLogger(SlurmPartitions.class);
    /** How long a reading is used: partitions change when an administrator edits them, not per job. */
    static final Duration KEPT = Duration.ofMinutes(1);

    /**
     * A node in one partition (a node in two partitions is listed twice).
     *
     * @param inDefault the partition is the cluster's default, the one of jobs that name none
     */
    record Node(String name, String partition, boolean inDefault, int cpus, int gpus) {
    }

    private final Supplier<List<Node>> sinfo;
    private List<Node> nodes;
    private Instant readAt = Instant.EPOCH;

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

    private List<Node> current() {
        Instant now = Instant.now();
        if (nodes == null || Duration.between(readAt, now).compareTo(KEPT) > 0) {
            try {
                nodes = sinfo.get();
            } catch (SlurmCommands.SlurmException e) {
                log.debug("The cluster's partitions could not be read; submissions are not checked against them: {}", e.getMessage());
                nodes = nodes == null ? List.of() : nodes;
            }
            readAt = now;
        }
        return nodes;
    }
}

package io.trainyard.backend;

import java.util.List;

/**
 * A partition of the cluster a backend submits to, and what of each of its nodes is allocated: what the Pool page
 * shows beside the agents.
 *
 * @param isDefault jobs that name no partition go here
 */
public record Partition(String name, boolean isDefault, List<Node> nodes) {

    public Partition {
        nodes = List.copyOf(nodes);
    }

    /**
     * A node of the partition (a node in two partitions is in both).
     *
     * @param state as the cluster names it: {@code idle}, {@code mixed}, {@code allocated}, {@code down}, …
     */
    public record Node(String name, String state, int cpus, int cpusAllocated, int gpus, int gpusUsed) {
    }
}

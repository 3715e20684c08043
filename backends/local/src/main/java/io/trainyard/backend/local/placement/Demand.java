package io.trainyard.backend.local.placement;

/**
 * What a job asks of the pool: {@code workers} processes, each on a GPU if it must; spread evenly over {@code nodes}
 * agents when that is more than 1, else on one agent if any can ever hold them all.
 */
public record Demand(int workers, boolean requireGpus, int nodes) {

    /** A job that leaves the number of hosts to the pool. */
    public Demand(int workers, boolean requireGpus) {
        this(workers, requireGpus, 0);
    }
}

package io.trainyard.backend.local.placement;

/** What a job asks of the pool: {@code workers} processes, all on one agent, each on a GPU if it must. */
public record Demand(int workers, boolean requireGpus) {
}

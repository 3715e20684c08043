package io.trainyard.backend;

import io.trainyard.job.Placement;

/** Where a backend puts a queued job: placed now, wait for capacity, or never placeable. */
public sealed interface PlacementDecision {

    /** Resources taken on {@code node} (an agent, or the replica that follows a remote run). */
    record Placed(String node, Placement placement) implements PlacementDecision {
    }

    /** Not now; the job stays queued. {@code reason} says what it waits for. */
    record Wait(String reason) implements PlacementDecision {
    }

    /** No capacity this backend will ever have fits the job. */
    record Never(String reason) implements PlacementDecision {
    }
}

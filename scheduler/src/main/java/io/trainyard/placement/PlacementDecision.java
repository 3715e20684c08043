package io.trainyard.placement;

/** Where the placer puts a job: on an agent now, later, or nowhere ever. */
public sealed interface PlacementDecision {

    record OnAgent(Placement placement) implements PlacementDecision {
    }

    record Wait() implements PlacementDecision {
    }

    record Never(String reason) implements PlacementDecision {
    }
}

package io.trainyard.dispatch;

/** The answer of {@link Backend#reserve}: placed now, wait for capacity, or never placeable. */
public sealed interface Reservation {

    /**
     * Resources taken on {@code node} (an agent, or the replica that follows a remote run);
     * {@code placementJson} says which (shown to users, kept on the job).
     */
    record Placed(String node, String placementJson) implements Reservation {
    }

    /** Not now; the job stays queued. */
    record Wait() implements Reservation {
    }

    /** No capacity this backend will ever have fits the job. */
    record Never(String reason) implements Reservation {
    }
}

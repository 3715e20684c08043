package io.trainyard.protocol;

import java.util.List;
import java.util.UUID;

/**
 * What the agent should do now: runs to start, jobs whose runs it should stop, and runs it should kill without a
 * word because they were settled without it.
 *
 * @param settled jobs the heartbeat listed as running here that are no longer active here: another host of the
 *     job ended it (a failed rank of a job spanning hosts), or it was failed while this agent was away
 */
public record Work(List<Assignment> assignments, List<Cancel> cancels, List<UUID> settled) {

    public Work {
        settled = settled == null ? List.of() : List.copyOf(settled);
    }

    /** Stop the run of this attempt; one the agent does not have ends CANCELLED at once. */
    public record Cancel(UUID jobId, int attempt) {
    }

    public boolean isEmpty() {
        return assignments.isEmpty() && cancels.isEmpty() && settled.isEmpty();
    }
}

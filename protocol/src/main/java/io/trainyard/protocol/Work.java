package io.trainyard.protocol;

import java.util.List;
import java.util.UUID;

/** What the agent should do now: runs to start, and jobs whose runs it should stop. */
public record Work(List<Assignment> assignments, List<Cancel> cancels) {

    /** Stop the run of this attempt; one the agent does not have ends CANCELLED at once. */
    public record Cancel(UUID jobId, int attempt) {
    }

    public boolean isEmpty() {
        return assignments.isEmpty() && cancels.isEmpty();
    }
}

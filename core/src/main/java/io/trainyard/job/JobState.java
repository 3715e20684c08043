package io.trainyard.job;

import java.util.EnumSet;
import java.util.Set;

/**
 * A job's lifecycle. {@code CANCELLING} sits between a cancel request and the backend's confirmation,
 * because a run may still finish on its own after the request.
 */
public enum JobState {
    QUEUED, STARTING, RUNNING, CANCELLING, SUCCEEDED, FAILED, CANCELLED;

    private static final Set<JobState> TERMINAL = EnumSet.of(SUCCEEDED, FAILED, CANCELLED);
    public static final Set<JobState> ACTIVE = EnumSet.of(STARTING, RUNNING, CANCELLING);

    public boolean isTerminal() {
        return TERMINAL.contains(this);
    }

    /**
     * The state machine; a retry is the only way out of a terminal state. A queued job succeeds without
     * starting when it has nothing to run (GiGL's trainer skipping both training and evaluation).
     */
    public boolean canMoveTo(JobState next) {
        return switch (this) {
            case QUEUED -> next == STARTING || next == CANCELLED || next == FAILED || next == SUCCEEDED;
            case STARTING -> next == RUNNING || next == CANCELLING || next == FAILED || next == CANCELLED;
            case RUNNING -> next == CANCELLING || next.isTerminal();
            case CANCELLING -> next.isTerminal();
            case SUCCEEDED, FAILED, CANCELLED -> next == QUEUED;
        };
    }
}

package io.trainyard.job;

/** How a run ended, as its backend saw it. */
public record RunOutcome(JobState state, FailureCause cause, Integer exitCode, String message) {

    public static RunOutcome succeeded() {
        return new RunOutcome(JobState.SUCCEEDED, null, 0, "trainer exited with code 0");
    }

    public static RunOutcome cancelled(Integer exitCode) {
        return new RunOutcome(JobState.CANCELLED, null, exitCode, "cancelled on request");
    }

    /** Cancelled outside Trainyard, with the backend's own tools; {@code message} says by whom and why. */
    public static RunOutcome cancelledElsewhere(String message) {
        return new RunOutcome(JobState.CANCELLED, null, null, message);
    }

    public static RunOutcome failed(FailureCause cause, Integer exitCode, String message) {
        return new RunOutcome(JobState.FAILED, cause, exitCode, message);
    }
}

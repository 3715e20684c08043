package io.trainyard.protocol;

import jakarta.validation.constraints.NotNull;

/**
 * How a run ended, as the agent saw it; the server turns it into the job's end state and failure cause.
 *
 * @param exitCode the exit status that decided it (128+N for signal N), when there is one
 */
public record RunEnd(@NotNull Result result, Integer exitCode, String message) {

    public enum Result {
        /** Every worker exited with 0. */
        SUCCEEDED,
        /** Stopped on the server's request. */
        CANCELLED,
        /** A worker exited non-zero. */
        EXITED_WITH_ERROR,
        /** The trainer could not be started (no such program, unwritable work folder). */
        LAUNCH_FAILED,
        /** Stopped after running past its timeout. */
        TIMED_OUT,
        /** The processes vanished without recording an exit (host rebooted, supervisor killed). */
        LOST
    }

    public static RunEnd succeeded() {
        return new RunEnd(Result.SUCCEEDED, 0, "trainer exited with code 0");
    }

    public static RunEnd cancelled(Integer exitCode) {
        return new RunEnd(Result.CANCELLED, exitCode, "cancelled on request");
    }

    public static RunEnd of(Result result, Integer exitCode, String message) {
        return new RunEnd(result, exitCode, message);
    }
}

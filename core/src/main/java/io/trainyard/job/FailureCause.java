package io.trainyard.job;

/** Why a job failed; users and retry policies treat these differently. */
public enum FailureCause {
    /** The trainer program exited non-zero; the exit code is on the job. */
    USER_CODE,
    /** The trainer program could not be started (missing executable, bad working folder). */
    LAUNCH_ERROR,
    /** The job ran past its timeout and was stopped. */
    TIMEOUT,
    /** No host of the backend can ever offer what the job insists on. */
    NO_CAPACITY,
    /** The host or agent running the job was lost. */
    INFRASTRUCTURE,
    /** The server lost track of the run (e.g. it restarted and the process was gone without a trace). */
    CONTROL_PLANE
}

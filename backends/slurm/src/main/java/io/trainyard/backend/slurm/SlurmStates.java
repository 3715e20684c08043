package io.trainyard.backend.slurm;

import io.trainyard.job.FailureCause;
import io.trainyard.job.RunOutcome;

/** What a Slurm job state means for the job: still waiting, running, or ended with an outcome. */
final class SlurmStates {

    /** The reason squeue gives a job that has none, e.g. pending before the scheduler's first look at it. */
    static final String NO_REASON = "None";

    private SlurmStates() {
    }

    /** Where a Slurm job is. */
    sealed interface Phase permits Pending, Running, Ended {
    }

    /** Waiting for its allocation; {@code reason} is Slurm's, e.g. {@code Resources}, {@code Priority}. */
    record Pending(String reason) implements Phase {
    }

    record Running() implements Phase {
    }

    /** Over; the outcome has no exit code yet (the ranks' exit files have it). */
    record Ended(RunOutcome outcome) implements Phase {
    }

    /**
     * Slurm's job states ({@code squeue %T}) as Trainyard sees them. A node lost under a job, a failed boot and a
     * preemption are the infrastructure's doing, so the job is retried; a job that failed or ran out of memory failed
     * in its own code.
     */
    static Phase of(String state, String reason) {
        return switch (state) {
            case "PENDING", "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED", "RESV_DEL_HOLD", "SUSPENDED", "CONFIGURING",
                    "RESIZING", "SPECIAL_EXIT", "STOPPED", "SIGNALING", "STAGE_OUT" -> new Pending(reason);
            case "RUNNING", "COMPLETING" -> new Running();
            case "COMPLETED" -> new Ended(RunOutcome.succeeded());
            case "FAILED" -> new Ended(RunOutcome.failed(FailureCause.USER_CODE, null, "the Slurm job failed"));
            case "OUT_OF_MEMORY" -> new Ended(RunOutcome.failed(FailureCause.USER_CODE, null,
                    "the Slurm job ran out of memory (OUT_OF_MEMORY)"));
            case "TIMEOUT", "DEADLINE" -> new Ended(RunOutcome.failed(FailureCause.TIMEOUT, null,
                    "the Slurm job ran past its time limit (" + state + ")"));
            case "NODE_FAIL", "BOOT_FAIL", "PREEMPTED", "REVOKED" -> new Ended(RunOutcome.failed(FailureCause.INFRASTRUCTURE, null,
                    "Slurm ended the job: " + state + (reason == null || reason.isBlank() || reason.equals(NO_REASON) ? "" : " (" + reason + ")")));
            case "CANCELLED" -> new Ended(RunOutcome.cancelled(null));
            default -> new Pending(state);
        };
    }
}

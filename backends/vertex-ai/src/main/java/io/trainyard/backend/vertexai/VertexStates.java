package io.trainyard.backend.vertexai;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.google.cloud.aiplatform.v1.CustomJob;
import com.google.rpc.Code;
import io.trainyard.job.FailureCause;
import io.trainyard.job.JobState;
import io.trainyard.job.RunOutcome;

/** What a CustomJob's {@code JOB_STATE_*} means for a Trainyard job. */
final class VertexStates {

    /** Vertex reports a replica's exit as "The replica workerpool0-0 exited with a non-zero status of 1." */
    private static final Pattern EXIT_STATUS = Pattern.compile("non-zero status of (\\d+)");

    private VertexStates() {
    }

    /** Where the CustomJob is: still waiting for machines, running, being cancelled, or ended. */
    sealed interface Phase {
    }

    record Waiting() implements Phase {
    }

    record Running() implements Phase {
    }

    record Cancelling() implements Phase {
    }

    record Ended(RunOutcome outcome) implements Phase {
    }

    static Phase of(CustomJob job) {
        return switch (job.getState()) {
            case JOB_STATE_UNSPECIFIED, JOB_STATE_QUEUED, JOB_STATE_PENDING -> new Waiting();
            // PAUSED and UPDATING are a running job's own business: it has machines and will go on.
            case JOB_STATE_RUNNING, JOB_STATE_PAUSED, JOB_STATE_UPDATING -> new Running();
            case JOB_STATE_CANCELLING -> new Cancelling();
            case JOB_STATE_SUCCEEDED -> new Ended(new RunOutcome(JobState.SUCCEEDED, null, 0, "Vertex AI CustomJob succeeded"));
            case JOB_STATE_CANCELLED -> new Ended(new RunOutcome(JobState.CANCELLED, null, null, "Vertex AI CustomJob cancelled"));
            // EXPIRED: the job waited for machines longer than its scheduling allowed.
            case JOB_STATE_EXPIRED -> new Ended(RunOutcome.failed(FailureCause.NO_CAPACITY, null,
                    message(job, "Vertex AI CustomJob expired before it got machines")));
            case JOB_STATE_FAILED, JOB_STATE_PARTIALLY_SUCCEEDED -> new Ended(failed(job));
            case UNRECOGNIZED -> new Ended(RunOutcome.failed(FailureCause.CONTROL_PLANE, null,
                    "Vertex AI reported a state this server does not know: " + job.getStateValue()));
        };
    }

    /** The failure cause follows the job's {@code error} status code. */
    private static RunOutcome failed(CustomJob job) {
        String message = message(job, "Vertex AI CustomJob " + job.getState().name().substring("JOB_STATE_".length()).toLowerCase());
        Code code = Code.forNumber(job.getError().getCode());
        FailureCause cause = switch (code == null ? Code.UNKNOWN : code) {
            case DEADLINE_EXCEEDED -> FailureCause.TIMEOUT;
            case RESOURCE_EXHAUSTED -> FailureCause.NO_CAPACITY;
            case INTERNAL, UNAVAILABLE, ABORTED, DATA_LOSS -> FailureCause.INFRASTRUCTURE;
            case PERMISSION_DENIED, UNAUTHENTICATED, NOT_FOUND, FAILED_PRECONDITION -> FailureCause.LAUNCH_ERROR;
            default -> FailureCause.USER_CODE;
        };
        Integer exitCode = null;
        Matcher exit = EXIT_STATUS.matcher(job.getError().getMessage());
        if (exit.find()) {
            exitCode = Integer.valueOf(exit.group(1));
            cause = FailureCause.USER_CODE;
        }
        return RunOutcome.failed(cause, exitCode, message);
    }

    private static String message(CustomJob job, String fallback) {
        return job.hasError() && !job.getError().getMessage().isBlank() ? job.getError().getMessage() : fallback;
    }
}

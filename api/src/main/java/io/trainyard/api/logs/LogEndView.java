package io.trainyard.api.logs;

import io.trainyard.job.FailureCause;
import io.trainyard.job.JobQueries;
import io.trainyard.job.JobState;

/** The last event of a log stream: how the job ended. */
public record LogEndView(JobState state, int attempt, Integer exitCode, FailureCause failureCause, String failureMessage) {

    public static LogEndView of(JobQueries.Status status) {
        return new LogEndView(status.state(), status.attempt(), status.exitCode(), status.failureCause(), status.failureMessage());
    }
}

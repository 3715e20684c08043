package io.trainyard.api.logs;

import io.swagger.v3.oas.annotations.media.Schema;
import io.trainyard.job.FailureCause;
import io.trainyard.job.JobQueries;
import io.trainyard.job.JobState;
import org.jspecify.annotations.Nullable;

/** The last event of a log stream: how the job ended. */
@Schema(name = "LogEnd", description = "The data of a log stream's `end` event: how the job ended")
public record LogEndView(JobState state, int attempt, @Nullable Integer exitCode, @Nullable FailureCause failureCause,
        @Nullable String failureMessage) {

    public static LogEndView of(JobQueries.Status status) {
        return new LogEndView(status.state(), status.attempt(), status.exitCode(), status.failureCause(), status.failureMessage());
    }
}

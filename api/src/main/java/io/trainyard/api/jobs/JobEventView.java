package io.trainyard.api.jobs;

import java.time.Instant;

import io.swagger.v3.oas.annotations.media.Schema;
import io.trainyard.job.FailureCause;
import io.trainyard.job.JobEvent;
import io.trainyard.job.JobState;
import org.jspecify.annotations.Nullable;

/** One entry of a job's state history. */
@Schema(name = "JobEvent")
public record JobEventView(long id, int attempt, @Nullable JobState from, JobState to, @Nullable FailureCause cause, @Nullable String message,
        Instant at) {

    static JobEventView of(JobEvent event) {
        return new JobEventView(event.getId(), event.getAttempt(), event.getFromState(), event.getToState(),
                event.getCause(), event.getMessage(), event.getAt());
    }
}

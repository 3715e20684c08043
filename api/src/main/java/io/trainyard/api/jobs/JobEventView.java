package io.trainyard.api.jobs;

import java.time.Instant;

import io.trainyard.job.FailureCause;
import io.trainyard.job.JobEvent;
import io.trainyard.job.JobState;

/** One entry of a job's state history. */
public record JobEventView(long id, int attempt, JobState from, JobState to, FailureCause cause, String message,
        Instant at) {

    static JobEventView of(JobEvent event) {
        return new JobEventView(event.getId(), event.getAttempt(), event.getFromState(), event.getToState(),
                event.getCause(), event.getMessage(), event.getAt());
    }
}

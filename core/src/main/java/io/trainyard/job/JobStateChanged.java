package io.trainyard.job;

import java.time.Duration;
import java.util.UUID;

/**
 * Published after a state change commits, for in-process listeners (the dispatcher wakes up, metrics
 * record waits, log followers notice an ended job).
 *
 * @param waited for {@code STARTING}: how long the job waited in the queue; otherwise null
 */
public record JobStateChanged(UUID jobId, String backend, JobState from, JobState to, Duration waited) {
}

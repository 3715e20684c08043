package io.trainyard.agent.protocol;

import io.trainyard.job.RunOutcome;

/** The run ended, and every log line of it was acknowledged first. */
public record Ended(long epoch, RunOutcome outcome) {
}

package io.trainyard.api.logs;

import java.util.List;

import io.trainyard.job.JobState;

/**
 * A page of log lines. Ask for the next page with {@code after = nextAfter}; when {@code lines} is empty
 * and {@code jobState} has ended, the log is complete.
 */
public record LogPageView(List<LogLineView> lines, long nextAfter, JobState jobState) {
}

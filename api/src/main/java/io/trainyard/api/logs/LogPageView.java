package io.trainyard.api.logs;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;
import io.trainyard.job.JobState;
import io.trainyard.logs.LogLine;

/**
 * A page of log lines. Ask for the next page with {@code after = nextAfter}; when {@code lines} is empty
 * and {@code jobState} has ended, the log is complete.
 */
@Schema(name = "LogPage")
public record LogPageView(List<LogLine> lines, long nextAfter, JobState jobState) {
}

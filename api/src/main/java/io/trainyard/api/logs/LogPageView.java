package io.trainyard.api.logs;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;
import io.trainyard.job.JobState;
import io.trainyard.logs.LogLine;

/**
 * A page of log lines. Ask for the next page with {@code after = nextAfter}; when {@code lines} is empty
 * and {@code jobState} has ended, the log is complete.
 *
 * @param lastSeq the job's highest line number so far: lines are numbered 1, 2, ... without gaps, so a client
 *     can fetch any stretch of a huge log ({@code after = n}) without reading what lies before it
 */
@Schema(name = "LogPage")
public record LogPageView(List<LogLine> lines, long nextAfter, JobState jobState, long lastSeq) {
}

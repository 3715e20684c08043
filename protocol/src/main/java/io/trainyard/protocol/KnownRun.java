package io.trainyard.protocol;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A run the server believes is on the agent, with what re-attaching needs.
 *
 * @param runState the processes the agent reported when the run started (their pids and start times)
 * @param readPositions where reading each output file resumes: just past the last stored line
 * @param lastBatch the number of the last log batch stored; shipping goes on with the next one
 * @param tensorboardLogsUri where the run writes its TensorBoard event files (as reported when it started), or
 *     null
 * @param metricPositions where reading each event file resumes: just past the last record whose points are stored
 * @param lastMetricBatch the number of the last metric batch stored
 * @param gpus the GPUs of the host the run holds (empty on CPU slots), whose usage is sampled
 */
public record KnownRun(UUID jobId, int attempt, boolean cancelling, String runState, Instant startedAt,
        long timeoutSeconds, Map<String, Long> readPositions, long lastBatch, String tensorboardLogsUri,
        Map<String, Long> metricPositions, long lastMetricBatch, List<Integer> gpus) {
}

package io.trainyard.scalars;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.trainyard.logs.LogStore;
import io.trainyard.protocol.LineQueue;
import io.trainyard.protocol.LogStream;
import io.trainyard.protocol.OutputLine;
import io.trainyard.protocol.ScalarSeries;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Stores what was read from a run's event files, wherever it was read (an agent, or this server from Cloud
 * Storage): the points, the files' read positions, and a log line for each damaged part that was skipped, so
 * the user sees why points are missing. One transaction, joining the caller's if there is one.
 */
@Component
public class ScalarIngest {

    private final ScalarStore scalars;
    private final LogStore logs;
    private final TransactionTemplate transaction;

    public ScalarIngest(ScalarStore scalars, LogStore logs, PlatformTransactionManager transactionManager) {
        this.scalars = scalars;
        this.logs = logs;
        this.transaction = new TransactionTemplate(transactionManager);
    }

    public void store(UUID jobId, int attempt, List<ScalarSeries> series, Map<String, Long> positions, List<String> skipped) {
        transaction.executeWithoutResult(status -> {
            scalars.append(jobId, attempt, series, positions);
            if (!skipped.isEmpty()) {
                List<OutputLine> lines = skipped.stream()
                        .map(skip -> OutputLine.at(Instant.now(), LogStream.STDERR, 0,
                                "[trainyard] TensorBoard event file damaged: " + skip))
                        .toList();
                logs.append(jobId, attempt, new LineQueue.Batch(lines, Map.of()));
            }
        });
    }
}

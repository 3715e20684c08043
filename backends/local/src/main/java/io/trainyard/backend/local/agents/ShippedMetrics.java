package io.trainyard.backend.local.agents;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.trainyard.logs.LogStore;
import io.trainyard.protocol.LineQueue;
import io.trainyard.protocol.LogStream;
import io.trainyard.protocol.MetricAck;
import io.trainyard.protocol.MetricBatch;
import io.trainyard.protocol.OutputLine;
import io.trainyard.scalars.ScalarStore;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Stores the metric batches agents ship, each at most once, like {@link ShippedLogs}: the number of the last
 * stored batch of an attempt is written in the same transaction as its points and read positions. What the agent
 * skipped as damaged in the event files becomes lines of the job's log, so the user sees why points are missing.
 */
@Component
public class ShippedMetrics {

    private final ScalarStore scalars;
    private final LogStore logs;
    private final JdbcClient jdbc;

    public ShippedMetrics(ScalarStore scalars, LogStore logs, JdbcClient jdbc) {
        this.scalars = scalars;
        this.logs = logs;
        this.jdbc = jdbc;
    }

    /** Stores a batch unless it was stored already. Must run in a transaction holding the job's row lock. */
    public MetricAck accept(UUID jobId, int attempt, MetricBatch batch) {
        if (batch.batch() <= lastBatch(jobId, attempt)) {
            return new MetricAck(batch.batch());
        }
        scalars.append(jobId, attempt, batch.series(), batch.positions());
        if (!batch.skipped().isEmpty()) {
            List<OutputLine> lines = batch.skipped().stream()
                    .map(skip -> OutputLine.at(Instant.now(), LogStream.STDERR, 0,
                            "[trainyard] TensorBoard event file damaged: " + skip))
                    .toList();
            logs.append(jobId, attempt, new LineQueue.Batch(lines, Map.of()));
        }
        jdbc.sql("""
                insert into metric_shipments (job_id, attempt, last_batch) values (?, ?, ?)
                on conflict (job_id, attempt) do update set last_batch = excluded.last_batch""")
                .params(jobId, attempt, batch.batch())
                .update();
        return new MetricAck(batch.batch());
    }

    /** The number of the last batch stored for the attempt, 0 if none. */
    public long lastBatch(UUID jobId, int attempt) {
        return jdbc.sql("select last_batch from metric_shipments where job_id = ? and attempt = ?")
                .params(jobId, attempt).query(Long.class).optional().orElse(0L);
    }
}

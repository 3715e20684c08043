package io.trainyard.logs;

import java.util.List;
import java.util.UUID;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.trainyard.TrainyardProperties;
import io.trainyard.agent.protocol.LogAck;
import io.trainyard.agent.protocol.LogBatch;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Stores the log batches agents ship. Each batch is stored at most once: the number of the last stored
 * batch of an attempt is written in the same transaction as its lines, so a batch resent because its
 * acknowledgement was lost (a timeout, a restart of either side) is acknowledged and dropped.
 */
@Component
public class ShippedLogs {

    private final LogStore store;
    private final JdbcClient jdbc;
    private final LogQuota quota;
    private final Counter linesIngested;

    public ShippedLogs(LogStore store, JdbcClient jdbc, TrainyardProperties properties, MeterRegistry registry) {
        this.store = store;
        this.jdbc = jdbc;
        this.quota = new LogQuota(properties.maxLogLinesPerAttempt());
        this.linesIngested = Counter.builder("trainyard.logs.lines.ingested")
                .description("Log lines stored, from all jobs").register(registry);
    }

    /**
     * Stores a batch unless it was stored already. Must run in a transaction holding the job's row lock,
     * which keeps one batch of a job at a time (the numbering of its lines depends on the ones before).
     */
    public LogAck accept(UUID jobId, int attempt, LogBatch batch) {
        long lastBatch = lastBatch(jobId, attempt);
        long accepted = store.countLines(jobId, attempt);
        if (batch.batch() <= lastBatch) {
            return new LogAck(batch.batch(), quota.isReached(accepted));
        }
        List<PendingLine> lines = batch.lines().stream()
                .map(line -> new PendingLine(line.time(), line.stream(), line.rank(), line.text(), null, 0))
                .toList();
        List<PendingLine> admitted = quota.admit(accepted, lines);
        if (admitted.isEmpty()) {
            store.savePositions(jobId, attempt, batch.positions());
        } else {
            store.append(jobId, attempt, store.lastSeq(jobId) + 1, admitted, batch.positions());
        }
        jdbc.sql("""
                insert into log_shipments (job_id, attempt, last_batch) values (?, ?, ?)
                on conflict (job_id, attempt) do update set last_batch = excluded.last_batch""")
                .params(jobId, attempt, batch.batch())
                .update();
        linesIngested.increment(admitted.size());
        return new LogAck(batch.batch(), quota.isReached(accepted + admitted.size()));
    }

    /** The number of the last batch stored for the attempt, 0 if none. */
    public long lastBatch(UUID jobId, int attempt) {
        return jdbc.sql("select last_batch from log_shipments where job_id = ? and attempt = ?")
                .params(jobId, attempt).query(Long.class).optional().orElse(0L);
    }
}

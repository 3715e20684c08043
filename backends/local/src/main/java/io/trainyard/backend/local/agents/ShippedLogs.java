package io.trainyard.backend.local.agents;

import java.util.UUID;

import io.trainyard.logs.LogStore;
import io.trainyard.protocol.LineQueue;
import io.trainyard.protocol.LogAck;
import io.trainyard.protocol.LogBatch;
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

    public ShippedLogs(LogStore store, JdbcClient jdbc) {
        this.store = store;
        this.jdbc = jdbc;
    }

    /**
     * Stores a batch unless it was stored already. Must run in a transaction holding the job's row lock,
     * which keeps one batch of a job at a time (the numbering of its lines depends on the ones before).
     */
    public LogAck accept(UUID jobId, int attempt, LogBatch batch) {
        if (batch.batch() <= lastBatch(jobId, attempt)) {
            return new LogAck(batch.batch(), store.isQuotaReached(jobId, attempt));
        }
        LogStore.Appended appended = store.append(jobId, attempt, new LineQueue.Batch(batch.lines(), batch.positions()));
        jdbc.sql("""
                insert into log_shipments (job_id, attempt, last_batch) values (?, ?, ?)
                on conflict (job_id, attempt) do update set last_batch = excluded.last_batch""")
                .params(jobId, attempt, batch.batch())
                .update();
        return new LogAck(batch.batch(), appended.quotaReached());
    }

    /** The number of the last batch stored for the attempt, 0 if none. */
    public long lastBatch(UUID jobId, int attempt) {
        return jdbc.sql("select last_batch from log_shipments where job_id = ? and attempt = ?")
                .params(jobId, attempt).query(Long.class).optional().orElse(0L);
    }
}

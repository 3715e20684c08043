package io.trainyard.backend.local.agents;

import java.util.UUID;

import io.trainyard.logs.LogStore;
import io.trainyard.protocol.LineQueue;
import io.trainyard.protocol.LogAck;
import io.trainyard.protocol.LogBatch;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Stores the log batches agents ship, each at most once ({@link StoredBatches}) and in their order: a batch
 * resent because its acknowledgement was lost is acknowledged and dropped, and one that comes before its
 * predecessor is stored ({@link BatchAheadException}) is refused, to be sent again. Agents keep several batches
 * of a run on their way, so that one is read and parsed while the one before it commits.
 */
@Component
public class ShippedLogs {

    /** What agents are told at registration; a batch holds up to 8,000 lines, the run's queue 200,000. */
    public static final int BATCHES_IN_FLIGHT = 4;

    private final LogStore store;
    private final StoredBatches stored;

    public ShippedLogs(LogStore store, JdbcClient jdbc) {
        this.store = store;
        this.stored = new StoredBatches(jdbc, "log_shipments");
    }

    /**
     * Stores a batch unless it was stored already. Must run in a transaction holding the job's row lock,
     * which keeps one batch of a job at a time (the numbering of its lines depends on the ones before).
     */
    public LogAck accept(UUID jobId, int attempt, LogBatch batch) {
        long last = lastBatch(jobId, attempt);
        if (batch.batch() <= last) {
            return new LogAck(batch.batch(), store.isQuotaReached(jobId, attempt));
        }
        if (batch.batch() > last + 1) {
            throw new BatchAheadException("log batch " + batch.batch() + " of job " + jobId + " attempt " + attempt
                    + " came before batch " + (last + 1) + " was stored; send it again after that one");
        }
        LogStore.Appended appended = store.append(jobId, attempt, new LineQueue.Batch(batch.lines(), batch.positions()));
        stored.record(jobId, attempt, batch.batch());
        return new LogAck(batch.batch(), appended.quotaReached());
    }

    /** The number of the last batch stored for the attempt, 0 if none. */
    public long lastBatch(UUID jobId, int attempt) {
        return stored.last(jobId, attempt);
    }
}

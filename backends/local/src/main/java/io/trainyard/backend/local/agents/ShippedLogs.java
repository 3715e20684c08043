package io.trainyard.backend.local.agents;

import java.util.UUID;

import io.trainyard.logs.LogStore;
import io.trainyard.protocol.LineQueue;
import io.trainyard.protocol.LogAck;
import io.trainyard.protocol.LogBatch;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Stores the log batches agents ship, each at most once ({@link StoredBatches}): a batch resent because its
 * acknowledgement was lost is acknowledged and dropped.
 */
@Component
public class ShippedLogs {

    private final LogStore store;
    private final StoredBatches stored;

    public ShippedLogs(LogStore store, JdbcClient jdbc) {
        this.store = store;
        this.stored = new StoredBatches(jdbc, "log_shipments");
    }

    /**
     * Stores a batch unless it was stored already. Must run in a transaction holding the job's row lock,
     * which keeps one batch of a job at a time (the numbering of its lines depends on the ones before).
     *
     * @param host which of the job's hosts shipped it (see {@link AgentReports})
     * @param hostTag the agent that shipped it, on a job spanning agents: its lines name it; else null
     */
    public LogAck accept(UUID jobId, int attempt, int host, @Nullable String hostTag, LogBatch batch) {
        if (batch.batch() <= lastBatch(jobId, attempt, host)) {
            return new LogAck(batch.batch(), store.isQuotaReached(jobId, attempt));
        }
        LogStore.Appended appended = store.append(jobId, attempt, hostTag, new LineQueue.Batch(batch.lines(), batch.positions()));
        stored.record(jobId, attempt, host, batch.batch());
        return new LogAck(batch.batch(), appended.quotaReached());
    }

    /** The number of the last batch the host ({@link GangHosts}) stored for the attempt, 0 if none. */
    public long lastBatch(UUID jobId, int attempt, int host) {
        return stored.last(jobId, attempt, host);
    }
}

package io.trainyard.backend.local.agents;

import java.util.UUID;

import io.trainyard.protocol.MetricAck;
import io.trainyard.protocol.MetricBatch;
import io.trainyard.scalars.ScalarIngest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Stores the metric batches agents ship, each at most once ({@link StoredBatches}), with their points and the
 * event files' read positions.
 */
@Component
public class ShippedMetrics {

    private final ScalarIngest ingest;
    private final StoredBatches stored;

    public ShippedMetrics(ScalarIngest ingest, JdbcClient jdbc) {
        this.ingest = ingest;
        this.stored = new StoredBatches(jdbc, "metric_shipments");
    }

    /** Stores a batch unless it was stored already. Must run in a transaction holding the job's row lock. */
    public MetricAck accept(UUID jobId, int attempt, MetricBatch batch) {
        if (batch.batch() <= lastBatch(jobId, attempt)) {
            return new MetricAck(batch.batch());
        }
        ingest.store(jobId, attempt, batch.series(), batch.positions(), batch.skipped());
        stored.record(jobId, attempt, batch.batch());
        return new MetricAck(batch.batch());
    }

    /** The number of the last batch stored for the attempt, 0 if none. */
    public long lastBatch(UUID jobId, int attempt) {
        return stored.last(jobId, attempt);
    }
}

package io.trainyard.backend.local.agents;

import java.util.UUID;

import io.trainyard.protocol.MetricAck;
import io.trainyard.protocol.MetricBatch;
import io.trainyard.protocol.SystemMetricBatch;
import io.trainyard.scalars.ScalarIngest;
import io.trainyard.scalars.SystemMetricStore;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Stores the metric batches agents ship, TensorBoard scalars (with the event files' read positions) and system
 * metric samples, each batch at most once ({@link StoredBatches}).
 */
@Component
public class ShippedMetrics {

    private final ScalarIngest ingest;
    private final SystemMetricStore systemMetrics;
    private final StoredBatches stored;
    private final StoredBatches storedSystem;

    public ShippedMetrics(ScalarIngest ingest, SystemMetricStore systemMetrics, JdbcClient jdbc) {
        this.ingest = ingest;
        this.systemMetrics = systemMetrics;
        this.stored = new StoredBatches(jdbc, "metric_shipments");
        this.storedSystem = new StoredBatches(jdbc, "system_metric_shipments");
    }

    /** Stores a batch unless it was stored already. Must run in a transaction holding the job's row lock. */
    public MetricAck accept(UUID jobId, int attempt, int host, MetricBatch batch) {
        if (batch.batch() <= lastBatch(jobId, attempt, host)) {
            return new MetricAck(batch.batch());
        }
        ingest.store(jobId, attempt, batch.series(), batch.positions(), batch.skipped());
        stored.record(jobId, attempt, host, batch.batch());
        return new MetricAck(batch.batch());
    }

    /** Stores a batch of samples unless it was stored already; as {@link #accept(UUID, int, int, MetricBatch)}. */
    public MetricAck accept(UUID jobId, int attempt, int host, SystemMetricBatch batch) {
        if (batch.batch() <= storedSystem.last(jobId, attempt, host)) {
            return new MetricAck(batch.batch());
        }
        systemMetrics.append(jobId, attempt, batch.series());
        storedSystem.record(jobId, attempt, host, batch.batch());
        return new MetricAck(batch.batch());
    }

    /** The number of the last batch of scalars the host stored for the attempt, 0 if none. */
    public long lastBatch(UUID jobId, int attempt, int host) {
        return stored.last(jobId, attempt, host);
    }
}

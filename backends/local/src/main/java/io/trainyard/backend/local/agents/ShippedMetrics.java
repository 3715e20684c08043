package io.trainyard.backend.local.agents;

import java.util.UUID;

import io.trainyard.protocol.MetricAck;
import io.trainyard.protocol.MetricBatch;
import io.trainyard.scalars.ScalarIngest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Stores the metric batches agents ship, each at most once, like {@link ShippedLogs}: the number of the last
 * stored batch of an attempt is written in the same transaction as its points and read positions.
 */
@Component
public class ShippedMetrics {

    private final ScalarIngest ingest;
    private final JdbcClient jdbc;

    public ShippedMetrics(ScalarIngest ingest, JdbcClient jdbc) {
        this.ingest = ingest;
        this.jdbc = jdbc;
    }

    /** Stores a batch unless it was stored already. Must run in a transaction holding the job's row lock. */
    public MetricAck accept(UUID jobId, int attempt, MetricBatch batch) {
        if (batch.batch() <= lastBatch(jobId, attempt)) {
            return new MetricAck(batch.batch());
        }
        ingest.store(jobId, attempt, batch.series(), batch.positions(), batch.skipped());
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

package io.trainyard.backend.local.agents;

import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The number of the last batch stored of each attempt's shipments of one kind (log lines, scalar points), per
 * host of the attempt (a job spanning several agents has one shipper on each): what makes a batch resent after a
 * lost acknowledgement (a timeout, a restart of either side) harmless. The number is written in the same
 * transaction as the batch's content, so the two are stored together or not at all.
 */
final class StoredBatches {

    private final JdbcClient jdbc;
    private final String table;

    /** @param table a table keyed by (job_id, attempt, host) with a last_batch column */
    StoredBatches(JdbcClient jdbc, String table) {
        this.jdbc = jdbc;
        this.table = table;
    }

    /** The number of the last batch the host stored for the attempt, 0 if none. */
    long last(UUID jobId, int attempt, int host) {
        return jdbc.sql("select last_batch from " + table + " where job_id = ? and attempt = ? and host = ?")
                .params(jobId, attempt, host).query(Long.class).optional().orElse(0L);
    }

    /** Records that the batch is stored; in the transaction that stores it. */
    void record(UUID jobId, int attempt, int host, long batch) {
        jdbc.sql("insert into " + table + " (job_id, attempt, host, last_batch) values (?, ?, ?, ?) "
                        + "on conflict (job_id, attempt, host) do update set last_batch = excluded.last_batch")
                .params(jobId, attempt, host, batch)
                .update();
    }
}

package io.trainyard.scalars;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.trainyard.protocol.ScalarSeries;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

/**
 * Jobs' system metrics (per GPU: utilisation, memory, power, temperature; per worker: CPU, resident memory, bytes
 * read and written), stored, downsampled and followed as scalars are, in {@code system_metric_chunks}. A series'
 * step is milliseconds since its attempt started; its tag names the device: {@code gpu0/utilization_percent},
 * {@code rank1/rss_bytes} (see {@link io.trainyard.protocol.SystemMetricNames}).
 */
@Repository
public class SystemMetricStore extends ScalarStore {

    public SystemMetricStore(JdbcClient jdbc, JdbcTemplate jdbcTemplate, MeterRegistry registry) {
        super(jdbc, jdbcTemplate, "system_metric_chunks", Counter.builder("trainyard.system.metrics.points.ingested")
                .description("System metric samples stored (GPU, CPU, memory, I/O), from all jobs").register(registry));
    }

    /**
     * Stores an attempt's samples, all or none: in the caller's transaction, or one of their own. Samples come from no
     * file: there is no read position.
     */
    @Transactional
    public void append(UUID jobId, int attempt, List<ScalarSeries> series) {
        append(jobId, attempt, series, Map.of());
    }
}

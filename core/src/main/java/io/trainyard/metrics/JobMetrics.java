package io.trainyard.metrics;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.trainyard.job.JobState;
import io.trainyard.job.JobStateChanged;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.event.TransactionalEventListener;

/**
 * Job metrics: {@code trainyard.jobs{state}} counts every job in the database (all replicas' jobs, read at
 * most every {@value #COUNT_TTL_MILLIS} ms when scraped) and {@code trainyard.jobs.queue.wait} times how
 * long jobs waited in the queue before this server placed them.
 */
@Component
public class JobMetrics {

    private static final long COUNT_TTL_MILLIS = 2_000;

    private final JdbcClient jdbc;
    private final Timer queueWait;
    private volatile Map<JobState, Long> counts = new EnumMap<>(JobState.class);
    private volatile long countedAt;

    public JobMetrics(JdbcClient jdbc, MeterRegistry registry) {
        this.jdbc = jdbc;
        this.queueWait = Timer.builder("trainyard.jobs.queue.wait")
                .description("Time from submission (or retry) to placement")
                .publishPercentiles(0.5, 0.99).register(registry);
        for (JobState state : JobState.values()) {
            Gauge.builder("trainyard.jobs", this, metrics -> metrics.count(state))
                    .description("Jobs by state").tag("state", state.name()).register(registry);
        }
    }

    @TransactionalEventListener
    void onStateChanged(JobStateChanged change) {
        Duration waited = change.waited();
        if (waited != null) {
            queueWait.record(waited);
        }
    }

    /** NaN while the database cannot be counted: one failed try per TTL, not one per state and scrape. */
    private double count(JobState state) {
        if (System.currentTimeMillis() - countedAt > COUNT_TTL_MILLIS) {
            Map<JobState, Long> fresh = new EnumMap<>(JobState.class);
            try {
                jdbc.sql("select state, count(*) from jobs group by state")
                        .query((rs, row) -> fresh.put(JobState.valueOf(rs.getString(1)), rs.getLong(2)))
                        .list();
                counts = fresh;
            } catch (RuntimeException e) {
                counts = null;
            }
            countedAt = System.currentTimeMillis();
        }
        Map<JobState, Long> known = counts;
        return known == null ? Double.NaN : known.getOrDefault(state, 0L);
    }
}

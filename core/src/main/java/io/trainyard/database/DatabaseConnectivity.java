package io.trainyard.database;

import java.time.Duration;
import java.time.Instant;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.trainyard.core.BackgroundLoop;
import io.trainyard.core.TrainyardProperties;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Whether this replica can reach the database, known from a probe every second and from every request
 * that failed to reach it. The probe is the replica's own heartbeat in {@code control_plane_replicas}, which
 * lets other replicas see one that lost the database (see {@code AgentReaper}). An incident is logged at
 * WARN once when it starts and once when it ends, never per retry; {@code trainyard.database.up} is 1 or 0.
 */
@Component
public class DatabaseConnectivity extends BackgroundLoop {

    private static final Logger log = LoggerFactory.getLogger(DatabaseConnectivity.class);
    private static final long PROBE_INTERVAL_MILLIS = 1_000;
    private static final Duration LEAVE_TIMEOUT = Duration.ofSeconds(2);

    private final JdbcClient jdbc;
    private final ApplicationEventPublisher publisher;
    private final String replica;
    private Instant lostAt;
    private long upSinceNanos = System.nanoTime();

    public DatabaseConnectivity(JdbcClient jdbc, ApplicationEventPublisher publisher, TrainyardProperties properties,
            MeterRegistry registry) {
        super("database-watch");
        this.jdbc = jdbc;
        this.publisher = publisher;
        this.replica = properties.nodeId();
        Gauge.builder("trainyard.database.up", this, connectivity -> connectivity.isUp() ? 1 : 0)
                .description("1 while this replica reaches its database, 0 while it cannot").register(registry);
    }

    /** Whether the last probe or request reached the database. */
    public synchronized boolean isUp() {
        return lostAt == null;
    }

    /** Whether the database has been reachable, without a failure, for at least {@code period} (or since start). */
    public synchronized boolean upFor(Duration period) {
        return lostAt == null && System.nanoTime() - upSinceNanos >= period.toNanos();
    }

    /** A request or loop of this replica failed to reach the database. */
    public synchronized void unreachable(Throwable failure) {
        if (lostAt == null) {
            lostAt = Instant.now();
            log.warn("Database unreachable from replica {}: {}. Requests answer 503 and no agent is declared lost "
                    + "until it is back.", replica, failure.toString());
        }
    }

    @Override
    protected void step() throws InterruptedException {
        try {
            jdbc.sql("""
                    insert into control_plane_replicas (node_id, last_seen_at) values (:replica, clock_timestamp())
                    on conflict (node_id) do update set last_seen_at = clock_timestamp()""")
                    .param("replica", replica).update();
            reachable();
        } catch (RuntimeException e) {
            unreachable(e);
        }
        Thread.sleep(PROBE_INTERVAL_MILLIS);
    }

    private void reachable() {
        Instant lost;
        synchronized (this) {
            lost = lostAt;
        }
        if (lost == null) {
            return;
        }
        Instant back = Instant.now();
        publisher.publishEvent(new DatabaseReconnected(replica, lost, back));
        synchronized (this) {
            lostAt = null;
            upSinceNanos = System.nanoTime();
        }
        log.warn("Database reachable again from replica {} after {} s (lost at {})", replica,
                Duration.between(lost, back).toMillis() / 1000.0, lost);
    }

    /**
     * A replica that shuts down says so, so that others do not wait for it as for one cut off. For 2 s at most: a
     * database already gone (an outage, or everything stopping at once) would otherwise hold the shutdown for the
     * pool's 30 s connection timeout, and the others then learn it the slow way, from its silence.
     */
    @PreDestroy
    void leave() throws InterruptedException {
        Thread goodbye = Thread.ofVirtual().name("replica-leave").start(() -> {
            try {
                jdbc.sql("delete from control_plane_replicas where node_id = :replica").param("replica", replica).update();
            } catch (RuntimeException e) {
                log.info("Could not remove replica {} from control_plane_replicas: {}", replica, e.toString());
            }
        });
        if (!goodbye.join(LEAVE_TIMEOUT)) {
            log.info("Could not remove replica {} from control_plane_replicas: the database did not answer in {} s", replica,
                    LEAVE_TIMEOUT.toSeconds());
        }
    }
}

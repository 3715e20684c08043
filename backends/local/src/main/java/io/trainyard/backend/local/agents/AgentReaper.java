package io.trainyard.backend.local.agents;

import io.trainyard.agent.run.FenceDeadline;
import io.trainyard.core.BackgroundLoop;
import io.trainyard.core.TrainyardProperties;
import io.trainyard.database.DatabaseConnectivity;
import io.trainyard.database.DatabaseFailures;
import io.trainyard.database.DatabaseReconnected;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Every server replica looks once a second for agents whose lease ran out; rows are claimed with SKIP
 * LOCKED, so each lost agent is handled once even with many replicas. A replica judges leases only once it
 * has reached the database without a failure for a full lease (since it started, or since its last failure):
 * meanwhile agents may not have been able to renew through it. When it gets the database back it pushes
 * every active agent's lease out by one lease, so an outage never turns into "agent lost".
 */
@Component
public class AgentReaper extends BackgroundLoop {

    private static final Logger log = LoggerFactory.getLogger(AgentReaper.class);
    private static final long INTERVAL_MILLIS = 1_000;

    private final AgentRegistry registry;
    private final AgentProperties properties;
    private final DatabaseConnectivity database;
    private final TrainyardProperties trainyard;
    private volatile long startedNanos;

    public AgentReaper(AgentRegistry registry, AgentProperties properties, DatabaseConnectivity database,
            TrainyardProperties trainyard) {
        super("agent-reaper");
        this.registry = registry;
        this.properties = properties;
        this.database = database;
        this.trainyard = trainyard;
    }

    /**
     * Runs once the server listens (the web server starts in an earlier phase): agents can heartbeat from now.
     * A fence deadline this server took over at start is released first: it runs out a lease less one interval
     * from now, before this reaper may judge any lease, unless the server's own agent re-attaches its runs.
     */
    @Override
    protected void beforeFirstStep() {
        FenceDeadline.releaseStartHold(trainyard.dataDir());
        startedNanos = System.nanoTime();
    }

    @Override
    protected void step() throws InterruptedException {
        try {
            if (System.nanoTime() - startedNanos >= properties.lease().toNanos() && database.upFor(properties.lease())) {
                registry.reapExpired();
            }
        } catch (RuntimeException e) {
            if (DatabaseFailures.isUnreachable(e)) {
                database.unreachable(e);
            } else {
                log.warn("Looking for lost agents failed: {}", e.toString());
            }
        }
        Thread.sleep(INTERVAL_MILLIS);
    }

    /** Runs on the database watch's thread before it counts the database as back; a failure keeps it down. */
    @EventListener
    void databaseReconnected(DatabaseReconnected outage) {
        registry.extendLeasesAfterOutage(outage);
    }
}

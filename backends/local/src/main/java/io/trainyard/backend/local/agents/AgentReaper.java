package io.trainyard.backend.local.agents;

import java.time.Instant;

import io.trainyard.BackgroundLoop;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Every server replica looks once a second for agents whose lease ran out; rows are claimed with SKIP
 * LOCKED, so each lost agent is handled once even with many replicas. A server that was just started, or
 * that could not reach the database, waits one lease first: meanwhile no agent could renew, and each
 * deserves a heartbeat's chance to show it is alive before its jobs are failed.
 */
@Component
public class AgentReaper extends BackgroundLoop {

    private static final Logger log = LoggerFactory.getLogger(AgentReaper.class);
    private static final long INTERVAL_MILLIS = 1_000;

    private final AgentRegistry registry;
    private final AgentProperties properties;
    private volatile Instant reapFrom;

    public AgentReaper(AgentRegistry registry, AgentProperties properties) {
        super("agent-reaper");
        this.registry = registry;
        this.properties = properties;
    }

    @Override
    protected void beforeFirstStep() {
        reapFrom = Instant.now().plus(properties.lease());
    }

    @Override
    protected void step() throws InterruptedException {
        try {
            if (Instant.now().isAfter(reapFrom)) {
                registry.reapExpired();
            }
        } catch (RuntimeException e) {
            log.warn("Looking for lost agents failed: {}", e.toString());
            reapFrom = Instant.now().plus(properties.lease());
        }
        Thread.sleep(INTERVAL_MILLIS);
    }
}

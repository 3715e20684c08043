package io.trainyard.agent;

import io.trainyard.BackgroundLoop;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Every server replica looks once a second for agents whose lease ran out; rows are claimed with SKIP
 * LOCKED, so each lost agent is handled once even with many replicas.
 */
@Component
public class AgentReaper implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(AgentReaper.class);
    private static final long INTERVAL_MILLIS = 1_000;

    private final AgentRegistry registry;
    private final BackgroundLoop loop = new BackgroundLoop("agent-reaper", this::reapOnce);

    public AgentReaper(AgentRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void start() {
        loop.start();
    }

    @Override
    public void stop() {
        loop.stop();
    }

    @Override
    public boolean isRunning() {
        return loop.isRunning();
    }

    private void reapOnce() throws InterruptedException {
        try {
            registry.reapExpired();
        } catch (RuntimeException e) {
            log.warn("Looking for lost agents failed: {}", e.toString());
        }
        Thread.sleep(INTERVAL_MILLIS);
    }
}

package io.trainyard.agent;

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
    private volatile Thread loop;

    public AgentReaper(AgentRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void start() {
        // Assigned before it starts: the loop runs only while it is the current one.
        Thread thread = Thread.ofPlatform().name("agent-reaper").daemon().unstarted(this::run);
        loop = thread;
        thread.start();
    }

    @Override
    public void stop() {
        Thread running = loop;
        loop = null;
        if (running != null) {
            running.interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return loop != null;
    }

    private void run() {
        while (loop == Thread.currentThread()) {
            try {
                registry.reapExpired();
            } catch (RuntimeException e) {
                log.warn("Looking for lost agents failed: {}", e.toString());
            }
            try {
                Thread.sleep(INTERVAL_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}

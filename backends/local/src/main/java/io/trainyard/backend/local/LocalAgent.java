package io.trainyard.backend.local;

import java.net.InetAddress;
import java.net.UnknownHostException;

import io.trainyard.BackgroundLoop;
import io.trainyard.TrainyardProperties;
import io.trainyard.agent.AgentProperties;
import io.trainyard.agent.AgentRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The agent of this server's own host: registers the host's GPUs or CPU slots under the node id and
 * renews its lease. If the lease was lost meanwhile (the server was frozen or cut off from the database
 * for longer than the lease), its jobs have been failed and perhaps retried elsewhere: the runs still
 * here are stale, so they are killed before the agent registers again.
 */
@Component
// An API-only replica runs no jobs, so it offers no capacity.
@ConditionalOnProperty(name = "trainyard.dispatcher.enabled", matchIfMissing = true)
public class LocalAgent implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(LocalAgent.class);

    private final AgentRegistry registry;
    private final LocalBackend backend;
    private final TrainyardProperties trainyard;
    private final AgentProperties properties;
    private final LocalBackendProperties local;
    private final BackgroundLoop loop = new BackgroundLoop("local-agent", this::heartbeatOnce);
    private long epoch;

    public LocalAgent(AgentRegistry registry, LocalBackend backend, TrainyardProperties trainyard,
            AgentProperties properties, LocalBackendProperties local) {
        this.registry = registry;
        this.backend = backend;
        this.trainyard = trainyard;
        this.properties = properties;
        this.local = local;
    }

    @Override
    public void start() {
        register();
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

    @Override
    public int getPhase() {
        // Registered before the dispatcher places work here, and renewing until the backend has stopped.
        return SmartLifecycle.DEFAULT_PHASE - 1000;
    }

    private void register() {
        epoch = registry.register(trainyard.nodeId(), hostName(), backend.gpus(), local.cpuSlots());
    }

    private void heartbeatOnce() throws InterruptedException {
        Thread.sleep(properties.heartbeatInterval().toMillis());
        try {
            if (!registry.heartbeat(trainyard.nodeId(), epoch)) {
                log.warn("Node {} lost its lease (epoch {}); stopping its stale runs and registering again",
                        trainyard.nodeId(), epoch);
                backend.killAllRuns();
                register();
            }
        } catch (RuntimeException e) {
            log.warn("Heartbeat of node {} failed: {}", trainyard.nodeId(), e.toString());
        }
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}

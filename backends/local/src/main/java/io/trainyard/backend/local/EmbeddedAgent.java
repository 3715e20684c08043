package io.trainyard.backend.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import io.trainyard.agent.AgentSettings;
import io.trainyard.agent.GpuDiscovery;
import io.trainyard.agent.HostAgent;
import io.trainyard.backend.local.agents.AgentReports;
import io.trainyard.backend.local.agents.AgentWork;
import io.trainyard.core.TrainyardProperties;
import io.trainyard.protocol.Registration;
import io.trainyard.security.audit.AuditLog;
import io.trainyard.security.tokens.ApiTokens;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * The agent of the server's own host, run inside the server, so one command runs everything. It speaks the same
 * protocol as any agent, through the same services, but calls them in this process ({@link InProcessConnection})
 * rather than over loopback HTTP. Its id is the server's node id. It starts once the server has started, and the
 * server's start waits until it has registered: Spring Boot declares the server ready (readiness UP; before, the
 * server answers every request 503) only then, so whoever waits for a ready server finds its own host among the
 * agents. It stops first: its trainers keep running and the restarted server's agent re-attaches.
 */
@Component
@ConditionalOnExpression("${trainyard.dispatcher.enabled:true} and ${trainyard.local.embedded-agent:true}")
class EmbeddedAgent implements SmartLifecycle {

    /** The agent token this agent used before it called the server in-process; revoked where one is left. */
    private static final String FORMER_TOKEN_NAME = "embedded agent";
    private static final long REGISTRATION_CHECK_MILLIS = 10;
    private static final long WARN_EVERY_NANOS = 30_000_000_000L;
    /** How long the start waits for the agent at most: an agent that cannot register must not keep the server from ever being ready. */
    private static final long GIVE_UP_AFTER_NANOS = 120_000_000_000L;
    private static final Logger log = LoggerFactory.getLogger(EmbeddedAgent.class);

    private final TrainyardProperties trainyard;
    private final LocalBackendProperties local;
    private final ApiTokens tokens;
    private final Environment environment;
    private final OwnAgentFence fence;
    private final AgentWork work;
    private final AgentReports reports;
    private final AuditLog auditLog;
    private volatile HostAgent agent;

    EmbeddedAgent(TrainyardProperties trainyard, LocalBackendProperties local, ApiTokens tokens, Environment environment,
            OwnAgentFence fence, AgentWork work, AgentReports reports, AuditLog auditLog) {
        this.trainyard = trainyard;
        this.local = local;
        this.tokens = tokens;
        this.environment = environment;
        this.fence = fence;
        this.work = work;
        this.reports = reports;
        this.auditLog = auditLog;
    }

    /** Not with the other lifecycles, which start before the server is ready. */
    @Override
    public boolean isAutoStartup() {
        return false;
    }

    /** Once the server has started, before it is declared ready: the server is ready once this agent has registered. */
    @EventListener
    void startOnceStarted(ApplicationStartedEvent started) throws InterruptedException {
        if (!isRunning()) {
            start();
        }
        long since = System.nanoTime();
        long warned = since;
        for (HostAgent current = agent; current != null && !current.isRegistered(); current = agent) {
            Thread.sleep(REGISTRATION_CHECK_MILLIS);
            if (System.nanoTime() - since > GIVE_UP_AFTER_NANOS) {
                log.error("The server becomes ready without its own agent {}, which has not registered in {} s; it runs "
                        + "no local jobs until it does", trainyard.nodeId(), GIVE_UP_AFTER_NANOS / 1_000_000_000L);
                return;
            }
            if (System.nanoTime() - warned > WARN_EVERY_NANOS) {
                warned = System.nanoTime();
                log.warn("The server is not ready yet: its own agent {} has not registered after {} s", trainyard.nodeId(),
                        (warned - since) / 1_000_000_000L);
            }
        }
    }

    @Override
    public void start() {
        tokens.revokeAgentTokensNamed(trainyard.nodeId(), FORMER_TOKEN_NAME);
        AgentSettings settings = new AgentSettings(trainyard.nodeId(), Registration.localHostName(),
                trainyard.dataDir(), GpuDiscovery.discover(local.nvidiaSmi()), local.cpuSlots(), local.python(),
                local.cancelGracePeriod(), local.masterAddr(), local.maxLogBacklog().toBytes(), local.trainerPath(),
                local.trainerIsolation(), local.trainerAccount(), hiddenFiles(), local.nvidiaSmi(), local.systemMetricsInterval());
        try {
            agent = new HostAgent(settings, new InProcessConnection(trainyard.nodeId(), work, reports, auditLog));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot set up this host's agent", e);
        }
        if (fence.ownedByThisServer()) {
            agent.fenceOwnedByThisProcess();
        }
        agent.start();
    }

    @Override
    public void stop() {
        try {
            agent.stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        agent = null;
    }

    @Override
    public boolean isRunning() {
        return agent != null;
    }

    /**
     * The server's own secret files, which its trainers could otherwise read where their mode lets them: its TLS
     * key and the Google credentials it calls Vertex AI with, besides those named in the settings. (Its data
     * folder, with the admin token and the database password, is hidden from trainers whole.)
     */
    private List<Path> hiddenFiles() {
        List<Path> files = new ArrayList<>(local.hiddenFiles());
        Stream.of("server.ssl.certificate-private-key", "server.ssl.key-store", "server.ssl.trust-store")
                .map(environment::getProperty)
                .filter(location -> location != null && !location.startsWith("classpath:"))
                .map(location -> Path.of(location.replaceFirst("^file:", "")).toAbsolutePath())
                .forEach(files::add);
        String credentials = System.getenv("GOOGLE_APPLICATION_CREDENTIALS");
        if (credentials != null && !credentials.isBlank()) {
            files.add(Path.of(credentials).toAbsolutePath());
        }
        return files;
    }
}

package io.trainyard.backend.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import io.trainyard.agent.AgentSettings;
import io.trainyard.agent.GpuDiscovery;
import io.trainyard.agent.HostAgent;
import io.trainyard.core.StartupRequests;
import io.trainyard.core.TrainyardProperties;
import io.trainyard.protocol.Registration;
import io.trainyard.security.tokens.ApiTokens;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * The agent of the server's own host, run inside the server and talking to it over loopback with the same
 * protocol as any agent, so one command runs everything. Its id is the server's node id, and its agent token
 * is made afresh at each start (the previous one revoked) and never leaves this process. It starts once the
 * server has started and listens, and the server's start waits until it has registered: Spring Boot declares the
 * server ready (readiness UP; before, the server answers every request 503 but this agent's own, see
 * {@link StartupRequests}) only then, so whoever waits for a ready server finds its own host among the agents. It
 * stops first: its trainers keep running and the restarted server's agent re-attaches.
 */
@Component
@ConditionalOnExpression("${trainyard.dispatcher.enabled:true} and ${trainyard.local.embedded-agent:true}")
class EmbeddedAgent implements SmartLifecycle, StartupRequests {

    private static final String TOKEN_NAME = "embedded agent";
    private static final long REGISTRATION_CHECK_MILLIS = 10;
    private static final long WARN_EVERY_NANOS = 30_000_000_000L;
    /**
     * How long the start waits for the agent at most: an agent that cannot register (a server serving TLS itself,
     * which this agent's plain-HTTP loopback calls cannot reach) must not keep the server from ever being ready.
     */
    private static final long GIVE_UP_AFTER_NANOS = 120_000_000_000L;
    private static final Logger log = LoggerFactory.getLogger(EmbeddedAgent.class);

    private final WebServerApplicationContext server;
    private final TrainyardProperties trainyard;
    private final LocalBackendProperties local;
    private final ApiTokens tokens;
    private final String address;
    private final Environment environment;
    private final OwnAgentFence fence;
    private volatile HostAgent agent;

    EmbeddedAgent(WebServerApplicationContext server, TrainyardProperties trainyard, LocalBackendProperties local,
            ApiTokens tokens, @Value("${server.address:}") String address, Environment environment,
            OwnAgentFence fence) {
        this.server = server;
        this.trainyard = trainyard;
        this.local = local;
        this.tokens = tokens;
        this.address = address;
        this.environment = environment;
        this.fence = fence;
    }

    /** Not with the other lifecycles, which start before the server is ready. */
    @Override
    public boolean isAutoStartup() {
        return false;
    }

    /** Once the server listens, before it is declared ready: the server is ready once this agent has registered. */
    @EventListener
    void startOnceListening(ApplicationStartedEvent started) throws InterruptedException {
        if (!isRunning()) {
            start();
        }
        long since = System.nanoTime();
        long warned = since;
        for (HostAgent current = agent; current != null && !current.isRegistered(); current = agent) {
            Thread.sleep(REGISTRATION_CHECK_MILLIS);
            if (System.nanoTime() - since > GIVE_UP_AFTER_NANOS) {
                log.error("The server becomes ready without its own agent {}, which has not registered in {} s; it runs "
                        + "no local jobs until it does (a server serving TLS itself: run agents apart, see Agents)",
                        trainyard.nodeId(), GIVE_UP_AFTER_NANOS / 1_000_000_000L);
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
        URI serverUri = URI.create("http://" + loopbackOr(address) + ":" + server.getWebServer().getPort());
        ApiTokens.Created token = tokens.createForAgent(trainyard.nodeId(), TOKEN_NAME, null, "server");
        tokens.revokeAgentTokensNamed(trainyard.nodeId(), TOKEN_NAME, token.token().id());
        AgentSettings settings = new AgentSettings(List.of(serverUri), token.secret(), trainyard.nodeId(), Registration.localHostName(),
                trainyard.dataDir(), GpuDiscovery.discover(local.nvidiaSmi()), local.cpuSlots(), local.python(),
                local.cancelGracePeriod(), local.masterAddr(), local.maxLogBacklog().toBytes(), local.trainerPath(),
                local.trainerIsolation(), local.trainerAccount(), hiddenFiles(), local.nvidiaSmi(), local.systemMetricsInterval());
        try {
            agent = new HostAgent(settings);
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

    /** This agent's own protocol requests (registration, heartbeats, run reports), which the server's start waits for. */
    @Override
    public boolean admits(String method, String path) {
        String own = "/agents/" + trainyard.nodeId();
        return !"GET".equals(method) && (path.equals(own) || path.startsWith(own + "/"));
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

    /** Where this server listens, as its own agent reaches it: loopback when it listens on every address. */
    private static String loopbackOr(String address) {
        return address == null || address.isBlank() || address.equals("0.0.0.0") || address.equals("::") ? "127.0.0.1" : address;
    }
}

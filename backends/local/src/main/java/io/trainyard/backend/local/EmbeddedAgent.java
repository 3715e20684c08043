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
import io.trainyard.core.TrainyardProperties;
import io.trainyard.protocol.Registration;
import io.trainyard.security.tokens.ApiTokens;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * The agent of the server's own host, run inside the server and talking to it over loopback with the same
 * protocol as any agent, so one command runs everything. Its id is the server's node id, and its agent token
 * is made afresh at each start (the previous one revoked) and never leaves this process. It starts once the
 * server is ready (before, the server answers every request 503), and stops first: its trainers keep running and
 * the restarted server's agent re-attaches.
 */
@Component
@ConditionalOnExpression("${trainyard.dispatcher.enabled:true} and ${trainyard.local.embedded-agent:true}")
class EmbeddedAgent implements SmartLifecycle {

    private static final String TOKEN_NAME = "embedded agent";

    private final WebServerApplicationContext server;
    private final TrainyardProperties trainyard;
    private final LocalBackendProperties local;
    private final ApiTokens tokens;
    private final String address;
    private final Environment environment;
    private HostAgent agent;

    EmbeddedAgent(WebServerApplicationContext server, TrainyardProperties trainyard, LocalBackendProperties local,
            ApiTokens tokens, @Value("${server.address:}") String address, Environment environment) {
        this.server = server;
        this.trainyard = trainyard;
        this.local = local;
        this.tokens = tokens;
        this.address = address;
        this.environment = environment;
    }

    /** Not with the other lifecycles, which start before the server is ready. */
    @Override
    public boolean isAutoStartup() {
        return false;
    }

    @EventListener
    void startOnceReady(AvailabilityChangeEvent<ReadinessState> readiness) {
        if (readiness.getState() == ReadinessState.ACCEPTING_TRAFFIC && !isRunning()) {
            start();
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
                local.trainerIsolation(), local.trainerAccount(), hiddenFiles());
        try {
            agent = new HostAgent(settings);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot set up this host's agent", e);
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

    /** Where this server listens, as its own agent reaches it: loopback when it listens on every address. */
    private static String loopbackOr(String address) {
        return address == null || address.isBlank() || address.equals("0.0.0.0") || address.equals("::") ? "127.0.0.1" : address;
    }
}

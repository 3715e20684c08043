package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.trainyard.client.model.Agent;
import io.trainyard.testing.RawHttpClient;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TestDatabase;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.JsonNode;

/**
 * A server that already listens but is not ready yet (here: held back in its last start-up step, as a slow
 * start-up would be) answers every request 503 with Retry-After and a problem detail, never a 500 or an empty
 * body (but liveness, which says only that the process runs); once ready it answers for real.
 */
class StartupTest {

    @TempDir
    static Path dataDir;

    @Test
    void requestsBeforeTheServerIsReadyAreAskedToRetry() throws Exception {
        CompletableFuture<Integer> listening = new CompletableFuture<>();
        CountDownLatch release = new CountDownLatch(1);
        // Runners run once the server listens and before it is declared ready.
        ApplicationContextInitializer<GenericApplicationContext> heldBack = context -> context.registerBean("heldBack",
                ApplicationRunner.class, () -> arguments -> {
                    listening.complete(((WebServerApplicationContext) context).getWebServer().getPort());
                    release.await();
                });
        CompletableFuture<RunningServer> starting = CompletableFuture.supplyAsync(
                () -> RunningServer.start(heldBack, TestDatabase.newDatabaseUrl(), dataDir, "starting-node"));

        RawHttpClient early = new RawHttpClient("http://127.0.0.1:" + listening.get(120, TimeUnit.SECONDS), null);
        try {
            for (String path : List.of("/jobs", "/actuator/health", "/v3/api-docs", "/agents/starting-node")) {
                RawHttpClient.Response answer = early.get(path);
                assertThat(answer.status()).as(path).isEqualTo(503);
                assertThat(answer.header("Retry-After")).as(path).isEqualTo("2");
                JsonNode problem = answer.body();
                assertThat(problem.get("status").asInt()).isEqualTo(503);
                assertThat(problem.get("detail").asString()).contains("starting");
            }
            // Liveness only says that the process runs.
            assertThat(early.get("/actuator/health/liveness").status()).isEqualTo(200);
        } finally {
            release.countDown();
        }
        try (RunningServer server = starting.get(60, TimeUnit.SECONDS)) {
            assertThat(server.api().raw().get("/jobs").status()).isEqualTo(200);
            assertThat(early.get("/actuator/health").status()).isEqualTo(200);
        }
    }

    /**
     * Ready means the server's own agent has registered: a client that waits for readiness and then lists the
     * agents finds it ACTIVE, even when its registration is slow (here held back 2 s, as on a loaded host).
     */
    @Test
    void readinessWaitsForTheEmbeddedAgentToRegister(@TempDir Path ownDataDir) throws Exception {
        CompletableFuture<Integer> listening = new CompletableFuture<>();
        ApplicationContextInitializer<GenericApplicationContext> slowRegistration = context -> {
            context.registerBean("slowRegistration", SlowRegistration.class, SlowRegistration::new);
            context.registerBean("port", ApplicationRunner.class, () -> arguments ->
                    listening.complete(((WebServerApplicationContext) context).getWebServer().getPort()));
        };
        CompletableFuture<RunningServer> starting = CompletableFuture.supplyAsync(
                () -> RunningServer.start(slowRegistration, TestDatabase.newDatabaseUrl(), ownDataDir, "slow-agent-node"));
        RawHttpClient probe = new RawHttpClient("http://127.0.0.1:" + listening.get(120, TimeUnit.SECONDS), null);
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (probe.get("/actuator/health/readiness").status() != 200) {
            assertThat(System.nanoTime()).as("readiness within 60 s").isLessThan(until);
            Thread.sleep(5);
        }
        try (RunningServer server = starting.get(60, TimeUnit.SECONDS)) {
            assertThat(server.api().agents().listAgents()).filteredOn(agent -> agent.getId().equals("slow-agent-node"))
                    .singleElement().extracting(Agent::getState).isEqualTo(Agent.StateEnum.ACTIVE);
        }
    }

    /** Holds the server's own agent's registration back 2 s. */
    @Order(Ordered.HIGHEST_PRECEDENCE)
    static final class SlowRegistration extends OncePerRequestFilter {
        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            if ("PUT".equals(request.getMethod()) && request.getRequestURI().equals("/agents/slow-agent-node")) {
                try {
                    Thread.sleep(2_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            chain.doFilter(request, response);
        }
    }
}

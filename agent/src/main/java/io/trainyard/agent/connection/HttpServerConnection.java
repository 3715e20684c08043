package io.trainyard.agent.connection;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import io.trainyard.protocol.Ended;
import io.trainyard.protocol.Heartbeat;
import io.trainyard.protocol.LogAck;
import io.trainyard.protocol.LogBatch;
import io.trainyard.protocol.MetricAck;
import io.trainyard.protocol.MetricBatch;
import io.trainyard.protocol.OutputLine;
import io.trainyard.protocol.Registered;
import io.trainyard.protocol.Registration;
import io.trainyard.protocol.Started;
import io.trainyard.protocol.StartedAck;
import io.trainyard.protocol.SystemMetricBatch;
import io.trainyard.protocol.Work;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;

/**
 * The agent protocol as JSON over HTTP with the agent token: how an agent on its own host reaches the server. A 409
 * answer means this agent process or the run is stale ({@link StaleRunException}); anything else that is not a
 * success (the server is away, restarting, failing) is an {@link IOException}. An agent may be given several replicas
 * of the server: after a failure (no answer, or a 5xx such as a replica that lost its database) the next call goes
 * to the next one.
 */
public final class HttpServerConnection implements ServerConnection {

    private static final JsonMapper JSON = JsonMapper.builder()
            .addModule(new SimpleModule("output-lines").addSerializer(OutputLine.class, new OutputLineWriter())).build();
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    private static final int HOST_PROBE_TIMEOUT_MILLIS = 1_000;

    private final List<URI> agentUris;
    private final String authorization;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final AtomicInteger current = new AtomicInteger();
    private volatile long lastAnswerNanos = System.nanoTime();

    public HttpServerConnection(List<URI> servers, String agentId, String token) {
        this.agentUris = servers.stream().map(server -> {
            String base = server.toString().endsWith("/") ? server.toString() : server + "/";
            return URI.create(base + "agents/" + URLEncoder.encode(agentId, StandardCharsets.UTF_8));
        }).toList();
        this.authorization = "Bearer " + token;
    }

    @Override
    public long lastAnswerNanos() {
        return lastAnswerNanos;
    }

    /**
     * Whether the server's host answered a failed connect, by refusing it. The HTTP client's exception does not
     * say (no message), so a plain socket asks again: a refusal, or a connection, is an answer; a timeout or no
     * route to the host is silence.
     */
    private static boolean hostAnswered(URI uri, IOException failure) {
        if (!(failure instanceof ConnectException)) {
            return false;
        }
        int port = uri.getPort() != -1 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
        try (Socket probe = new Socket()) {
            probe.connect(new InetSocketAddress(uri.getHost(), port), HOST_PROBE_TIMEOUT_MILLIS);
            return true;
        } catch (ConnectException e) {
            return e.getMessage() != null && e.getMessage().contains("Connection refused");
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public Registered register(Registration registration) throws IOException, InterruptedException {
        return call("PUT", "", registration, Registered.class, REQUEST_TIMEOUT);
    }

    @Override
    public Work heartbeat(Heartbeat heartbeat, Duration wait) throws IOException, InterruptedException {
        return call("POST", "/heartbeat?waitMillis=" + wait.toMillis(), heartbeat, Work.class, REQUEST_TIMEOUT.plus(wait));
    }

    @Override
    public StartedAck started(UUID jobId, int attempt, Started started) throws IOException, InterruptedException {
        return call("POST", run(jobId, attempt) + "/started", started, StartedAck.class, REQUEST_TIMEOUT);
    }

    @Override
    public LogAck logs(UUID jobId, int attempt, LogBatch batch) throws IOException, InterruptedException {
        return call("POST", run(jobId, attempt) + "/logs", batch, LogAck.class, REQUEST_TIMEOUT);
    }

    @Override
    public MetricAck metrics(UUID jobId, int attempt, MetricBatch batch) throws IOException, InterruptedException {
        return call("POST", run(jobId, attempt) + "/metrics", batch, MetricAck.class, REQUEST_TIMEOUT);
    }

    @Override
    public MetricAck systemMetrics(UUID jobId, int attempt, SystemMetricBatch batch) throws IOException, InterruptedException {
        return call("POST", run(jobId, attempt) + "/system-metrics", batch, MetricAck.class, REQUEST_TIMEOUT);
    }

    @Override
    public void ended(UUID jobId, int attempt, Ended ended) throws IOException, InterruptedException {
        call("POST", run(jobId, attempt) + "/ended", ended, null, REQUEST_TIMEOUT);
    }

    @Override
    public String toString() {
        return agentUris.toString();
    }

    private static String run(UUID jobId, int attempt) {
        return "/runs/" + jobId + "/" + attempt;
    }

    private <T> T call(String method, String path, Object body, Class<T> answer, Duration timeout)
            throws IOException, InterruptedException {
        int server = current.get();
        HttpRequest request = HttpRequest.newBuilder(URI.create(agentUris.get(server) + path))
                .timeout(timeout)
                .header("Authorization", authorization)
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)))
                .build();
        HttpResponse<byte[]> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            if (hostAnswered(request.uri(), e)) {
                lastAnswerNanos = System.nanoTime();
            }
            nextServerAfter(server);
            throw e;
        }
        lastAnswerNanos = System.nanoTime();
        int status = response.statusCode();
        if (status == 409) {
            throw new StaleRunException(new String(response.body(), StandardCharsets.UTF_8));
        }
        if (status / 100 != 2) {
            if (status / 100 == 5) {
                nextServerAfter(server);
            }
            throw new IOException(method + " " + request.uri() + " answered " + status + ": "
                    + new String(response.body(), StandardCharsets.UTF_8));
        }
        return answer == null ? null : JSON.readValue(response.body(), answer);
    }

    private void nextServerAfter(int failed) {
        current.compareAndSet(failed, (failed + 1) % agentUris.size());
    }
}

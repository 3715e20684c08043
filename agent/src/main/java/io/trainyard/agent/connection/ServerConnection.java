package io.trainyard.agent.connection;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

import io.trainyard.protocol.Ended;
import io.trainyard.protocol.Heartbeat;
import io.trainyard.protocol.LogAck;
import io.trainyard.protocol.LogBatch;
import io.trainyard.protocol.MetricAck;
import io.trainyard.protocol.MetricBatch;
import io.trainyard.protocol.Registered;
import io.trainyard.protocol.Registration;
import io.trainyard.protocol.Started;
import io.trainyard.protocol.StartedAck;
import io.trainyard.protocol.Work;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * The agent's side of the agent protocol ({@link io.trainyard.protocol}): JSON over HTTP with the agent
 * token. A 409 answer means this agent process or the run is stale ({@link StaleRunException}); anything
 * else that is not a success (the server is away, restarting, failing) is an {@link IOException}, and the
 * reports that must arrive are retried by {@link #untilDelivered}.
 */
public final class ServerConnection {

    private static final Logger log = LoggerFactory.getLogger(ServerConnection.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    private static final long MAX_RETRY_DELAY_MILLIS = 5_000;

    private final URI agentUri;
    private final String authorization;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public ServerConnection(URI server, String agentId, String token) {
        String base = server.toString().endsWith("/") ? server.toString() : server + "/";
        this.agentUri = URI.create(base + "agents/" + URLEncoder.encode(agentId, StandardCharsets.UTF_8));
        this.authorization = "Bearer " + token;
    }

    /** Something that must reach the server: a report of what really happened to a run. */
    public interface Delivery<T> {
        T send() throws IOException, InterruptedException;
    }

    /**
     * Sends until the server takes it, waiting longer after each failure (up to 5 s): the server may be
     * restarting or the database away, and the run's facts must not be lost.
     *
     * @throws StaleRunException if the server refuses it as stale: it will never be taken
     */
    public static <T> T untilDelivered(String what, Delivery<T> delivery) throws InterruptedException {
        long delay = 100;
        for (int failures = 1; ; failures++) {
            try {
                return delivery.send();
            } catch (IOException e) {
                // One failure is routine (a pooled connection closed under it); more mean the server is away.
                if (failures == 2 || failures % 20 == 0) {
                    log.warn("Could not deliver {} yet ({} tries): {}", what, failures, e.toString());
                }
                Thread.sleep(delay);
                delay = Math.min(delay * 2, MAX_RETRY_DELAY_MILLIS);
            }
        }
    }

    public Registered register(Registration registration) throws IOException, InterruptedException {
        return call("PUT", "", registration, Registered.class, REQUEST_TIMEOUT);
    }

    /** Renews the lease; the server holds the answer up to {@code wait} until there is work. */
    public Work heartbeat(Heartbeat heartbeat, Duration wait) throws IOException, InterruptedException {
        return call("POST", "/heartbeat?waitMillis=" + wait.toMillis(), heartbeat, Work.class, REQUEST_TIMEOUT.plus(wait));
    }

    public StartedAck started(UUID jobId, int attempt, Started started) throws IOException, InterruptedException {
        return call("POST", run(jobId, attempt) + "/started", started, StartedAck.class, REQUEST_TIMEOUT);
    }

    public LogAck logs(UUID jobId, int attempt, LogBatch batch) throws IOException, InterruptedException {
        return call("POST", run(jobId, attempt) + "/logs", batch, LogAck.class, REQUEST_TIMEOUT);
    }

    public MetricAck metrics(UUID jobId, int attempt, MetricBatch batch) throws IOException, InterruptedException {
        return call("POST", run(jobId, attempt) + "/metrics", batch, MetricAck.class, REQUEST_TIMEOUT);
    }

    public void ended(UUID jobId, int attempt, Ended ended) throws IOException, InterruptedException {
        call("POST", run(jobId, attempt) + "/ended", ended, null, REQUEST_TIMEOUT);
    }

    private static String run(UUID jobId, int attempt) {
        return "/runs/" + jobId + "/" + attempt;
    }

    private <T> T call(String method, String path, Object body, Class<T> answer, Duration timeout)
            throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(agentUri + path))
                .timeout(timeout)
                .header("Authorization", authorization)
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)))
                .build();
        HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        int status = response.statusCode();
        if (status == 409) {
            throw new StaleRunException(new String(response.body(), StandardCharsets.UTF_8));
        }
        if (status / 100 != 2) {
            throw new IOException(method + " " + request.uri() + " answered " + status + ": "
                    + new String(response.body(), StandardCharsets.UTF_8));
        }
        return answer == null ? null : JSON.readValue(response.body(), answer);
    }
}

package io.trainyard.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Plain HTTP requests to a server, with a bearer token (or none: an anonymous client), answers as JSON trees.
 *
 * <p>Which client a test uses: {@link TrainyardClient} (the generated one) for anything the public contract
 * ({@code api/openapi.yaml}) describes, status codes of documented errors included. This one only for what that
 * client cannot express or hides: malformed or mistyped requests, what anonymous and denied requests are
 * answered (every path, by hand), headers, the Server-Sent Events wire format, the agent protocol (a document of
 * its own), the browser's cookie session, TensorBoard's proxied pages, actuator and Prometheus.
 */
public final class RawHttpClient {

    public static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String baseUrl;
    private final String token;

    /** @param token sent as {@code Authorization: Bearer <token>}; null sends none */
    public RawHttpClient(String baseUrl, String token) {
        this.baseUrl = baseUrl;
        this.token = token;
    }

    /** The same server with another token (another user or agent), or none. */
    public RawHttpClient withToken(String otherToken) {
        return new RawHttpClient(baseUrl, otherToken);
    }

    public record Response(int status, JsonNode body, HttpResponse<String> raw) {
        public String header(String name) {
            return raw.headers().firstValue(name).orElse(null);
        }
    }

    public Response get(String path) {
        return send(request(path).GET().build());
    }

    /** Posts {@code body} as JSON. */
    public Response post(String path, Object body) {
        return postRaw(path, JSON.writeValueAsString(body));
    }

    /** Posts {@code text} as it is, declared JSON: for bodies that are not. */
    public Response postRaw(String path, String text) {
        return send(request(path).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(text)).build());
    }

    public Response put(String path, Object body) {
        return send(request(path).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build());
    }

    /** Any method, with no body: for checking what each endpoint answers. */
    public Response call(String method, String path) {
        return send(request(path).method(method, HttpRequest.BodyPublishers.noBody()).build());
    }

    /** An event of a Server-Sent Events stream. */
    public record SseEvent(String id, String event, String data) {
    }

    /**
     * Follows {@code path} as Server-Sent Events until the stream ends or {@code maxEvents} events arrived.
     */
    public List<SseEvent> follow(String path, String lastEventId, int maxEvents) {
        HttpRequest.Builder request = request(path).header("Accept", "text/event-stream").timeout(Duration.ofMinutes(2)).GET();
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        List<SseEvent> events = new ArrayList<>();
        try {
            HttpResponse<java.io.InputStream> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
            if (response.statusCode() != 200) {
                throw new AssertionError("stream answered " + response.statusCode());
            }
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                String id = null;
                String event = "message";
                StringBuilder data = new StringBuilder();
                String line;
                while (events.size() < maxEvents && (line = reader.readLine()) != null) {
                    if (line.isEmpty()) {
                        if (!data.isEmpty()) {
                            events.add(new SseEvent(id, event, data.toString()));
                        }
                        id = null;
                        event = "message";
                        data.setLength(0);
                    } else if (line.startsWith("id: ")) {
                        id = line.substring(4);
                    } else if (line.startsWith("event: ")) {
                        event = line.substring(7);
                    } else if (line.startsWith("data: ")) {
                        data.append(line.substring(6));
                    }
                }
            }
        } catch (IOException e) {
            throw new AssertionError("stream failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
        return events;
    }

    /** A request to {@code path} carrying this client's token. */
    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return request;
    }

    private Response send(HttpRequest request) {
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            boolean json = response.headers().firstValue("Content-Type").map(type -> type.contains("json")).orElse(false);
            JsonNode body = json && !response.body().isBlank() ? JSON.readTree(response.body()) : null;
            return new Response(response.statusCode(), body, response);
        } catch (IOException e) {
            throw new AssertionError("request failed: " + request.uri(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}

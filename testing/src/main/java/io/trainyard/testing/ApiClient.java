package io.trainyard.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Talks to a server over real HTTP, as any client would, with a bearer token (or none: an anonymous client).
 */
public final class ApiClient {

    public static final JsonMapper JSON = JsonMapper.builder().build();
    /** Where a server writes the first global admin's token, under its data folder. */
    public static final String ADMIN_TOKEN_FILE = "admin-token";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String baseUrl;
    private final String token;

    /** @param token sent as {@code Authorization: Bearer <token>}; null sends none */
    public ApiClient(String baseUrl, String token) {
        this.baseUrl = baseUrl;
        this.token = token;
    }

    /** The server's first global admin, with the token the server wrote under its data folder at its first start. */
    public static ApiClient asAdmin(String baseUrl, Path dataDir) {
        try {
            return new ApiClient(baseUrl, Files.readString(dataDir.resolve(ADMIN_TOKEN_FILE)).strip());
        } catch (IOException e) {
            throw new AssertionError("no admin token in " + dataDir + " (was the server started with security on?)", e);
        }
    }

    /** The same server with another token (another user or agent), or none. */
    public ApiClient withToken(String otherToken) {
        return new ApiClient(baseUrl, otherToken);
    }

    public String baseUrl() {
        return baseUrl;
    }

    public String token() {
        return token;
    }

    public record Response(int status, JsonNode body, HttpResponse<String> raw) {
        public String header(String name) {
            return raw.headers().firstValue(name).orElse(null);
        }
    }

    public Response post(String path, Object body, String... headers) {
        return postRaw(path, body instanceof String text ? text : JSON.writeValueAsString(body), headers);
    }

    public Response postRaw(String path, String json, String... headers) {
        return send(request(path, headers).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    public Response put(String path, Object body, String... headers) {
        return send(request(path, headers).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build());
    }

    public Response patch(String path, Object body) {
        return send(request(path).header("Content-Type", "application/json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build());
    }

    public Response delete(String path) {
        return send(request(path).DELETE().build());
    }

    /** Any method, with no body: for checking what each endpoint answers. */
    public Response call(String method, String path) {
        return send(request(path).method(method, HttpRequest.BodyPublishers.noBody()).build());
    }

    /** A request to {@code path} carrying this client's token; {@code headers} (name, value, …) override it. */
    private HttpRequest.Builder request(String path, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path));
        if (token != null) {
            request.setHeader("Authorization", "Bearer " + token);
        }
        for (int i = 0; i < headers.length; i += 2) {
            request.setHeader(headers[i], headers[i + 1]);
        }
        return request;
    }

    /** The lines of the job's log, in order (up to 10,000). */
    public List<String> logTexts(String id) {
        List<String> texts = new ArrayList<>();
        get("/jobs/" + id + "/logs?limit=10000").body().get("lines").forEach(line -> texts.add(line.get("text").asString()));
        return texts;
    }

    /** Polls until {@code condition} holds, failing after {@code timeout}. */
    public static void await(String what, BooleanSupplier condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + " did not happen in " + timeout);
            }
            sleep(50);
        }
    }

    public Response get(String path, String... headers) {
        return send(request(path, headers).GET().build());
    }

    public Response submit(Map<String, Object> body) {
        Response response = post("/jobs", body);
        if (response.status() != 201) {
            throw new AssertionError("submission failed: " + response.status() + " " + response.body());
        }
        return response;
    }

    public JsonNode job(String id) {
        return get("/jobs/" + id).body();
    }

    /** Polls the job until {@code condition} holds, failing after {@code timeout}. */
    public JsonNode awaitJob(String id, Predicate<JsonNode> condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode job = job(id);
        while (!condition.test(job)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("job " + id + " did not reach the expected state in " + timeout + ": " + job);
            }
            sleep(50);
            job = job(id);
        }
        return job;
    }

    public JsonNode awaitEnded(String id, Duration timeout) {
        return awaitJob(id, job -> List.of("SUCCEEDED", "FAILED", "CANCELLED").contains(job.get("state").asString()), timeout);
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

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Measures a running Trainyard server over loopback HTTP; run by bench/server/run.sh, which starts the
 * servers. Java's source launcher runs it as is: {@code java ServerBench.java <phase> <base-url>}.
 * Phases: submit (16 concurrent clients against an API-only replica), dispatch (submit-to-process-start
 * latency of no-op jobs, one at a time), logs (a job printing 1,000,000 lines, followed over SSE).
 */
public class ServerBench {

    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    static final Pattern ID = Pattern.compile("\"id\":\"([0-9a-f-]{36})\"");
    static final Pattern STATE = Pattern.compile("\"state\":\"([A-Z]+)\"");
    static final Pattern CREATED = Pattern.compile("\"createdAt\":\"([^\"]+)\"");
    static final Pattern STARTED = Pattern.compile("\"startedAt\":\"([^\"]+)\"");
    static final String RESOURCE = """
            sharedResourceConfig:
              commonComputeConfig: {project: bench, region: us-central1, tempAssetsBucket: gs://t, tempRegionalAssetsBucket: gs://r, permAssetsBucket: gs://p, tempAssetsBqDatasetName: bench_temp, embeddingBqDatasetName: bench_embeddings, gcpServiceAccountEmail: sa@bench.iam.gserviceaccount.com, dataflowRunner: DirectRunner}
            trainerResourceConfig:
              localTrainerConfig: {numWorkers: 1}
            """;

    public static void main(String[] args) throws Exception {
        String base = args[1];
        switch (args[0]) {
            case "submit" -> submissions(base, 16, Integer.parseInt(args.length > 2 ? args[2] : "10000"));
            case "dispatch" -> dispatchLatency(base, Integer.parseInt(args.length > 2 ? args[2] : "200"));
            case "logs" -> logThroughput(base, Integer.parseInt(args.length > 2 ? args[2] : "1000000"));
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    static String body(String name, String command) {
        String task = """
                taskMetadata: {nodeBasedTaskMetadata: {}}
                featureFlags: {should_run_glt_backend: "True"}
                sharedConfig: {trainedModelMetadata: {trainedModelUri: outputs/model.pt}}
                trainerConfig: {command: '%s'}
                """.formatted(command.replace("'", "''"));
        return "{\"jobName\":\"" + name + "\",\"taskConfig\":" + quote(task) + ",\"resourceConfig\":" + quote(RESOURCE) + "}";
    }

    static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
    }

    static HttpResponse<String> post(String url, String json) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    static String get(String url) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    static String find(Pattern pattern, String text) {
        Matcher matcher = pattern.matcher(text);
        return matcher.find() ? matcher.group(1) : null;
    }

    static void submissions(String base, int clients, int total) throws Exception {
        String json = body("bench_submit", "true");
        // Warm-up, from as many clients as measured: on 2 cores the JIT compilers of the server and of this
        // client keep a core busy for the first ~10,000 requests, which a long-running server is past.
        ExecutorService warmUp = Executors.newFixedThreadPool(clients);
        List<Future<?>> warming = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            warming.add(warmUp.submit(() -> post(base + "/jobs", json)));
        }
        for (Future<?> future : warming) {
            future.get();
        }
        warmUp.shutdown();
        AtomicInteger remaining = new AtomicInteger(total);
        AtomicInteger failures = new AtomicInteger();
        List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        long start = System.nanoTime();
        List<Future<?>> done = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            done.add(pool.submit(() -> {
                while (remaining.getAndDecrement() > 0) {
                    long t = System.nanoTime();
                    try {
                        if (post(base + "/jobs", json).statusCode() != 201) {
                            failures.incrementAndGet();
                        }
                    } catch (Exception e) {
                        failures.incrementAndGet();
                    }
                    latencies.add(System.nanoTime() - t);
                }
                return null;
            }));
        }
        for (Future<?> future : done) {
            future.get();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        pool.shutdown();
        System.out.printf("submissions: %d by %d concurrent clients in %.2f s = %.0f submissions/s (failures: %d, latency p50 %.1f ms, p99 %.1f ms)%n",
                total, clients, seconds, total / seconds, failures.get(), percentile(latencies, 50) / 1e6, percentile(latencies, 99) / 1e6);
    }

    static void dispatchLatency(String base, int jobs) throws Exception {
        List<Long> latencies = new ArrayList<>();
        for (int i = 0; i < jobs + 20; i++) {
            String id = find(ID, post(base + "/jobs", body("bench_dispatch", "true")).body());
            String job = get(base + "/jobs/" + id);
            while (!List.of("SUCCEEDED", "FAILED", "CANCELLED").contains(find(STATE, job))) {
                Thread.sleep(5);
                job = get(base + "/jobs/" + id);
            }
            if (i >= 20) { // the first jobs warm up the JIT
                latencies.add(Duration.between(Instant.parse(find(CREATED, job)), Instant.parse(find(STARTED, job))).toNanos());
            }
        }
        System.out.printf("dispatch: submit-to-process-start latency over %d no-op jobs: p50 %.1f ms, p99 %.1f ms, max %.1f ms%n",
                jobs, percentile(latencies, 50) / 1e6, percentile(latencies, 99) / 1e6, percentile(latencies, 100) / 1e6);
    }

    /** A trainer that prints {@code lines} lines, as fast as it can (rate 0) or paced at {@code rate} lines/s. */
    static final String PRINTER = """
            import sys, time
            lines, rate = int(sys.argv[1]), int(sys.argv[2])
            batch = 1000
            start = time.time()
            for first in range(0, lines, batch):
                sys.stdout.write("".join("line %d of the log\\n" % i for i in range(first, min(first + batch, lines))))
                if rate:
                    sys.stdout.flush()
                    ahead = start + (first + batch) / rate - time.time()
                    if ahead > 0:
                        time.sleep(ahead)
            """;

    static void logThroughput(String base, int lines) throws Exception {
        java.nio.file.Path printer = java.nio.file.Files.createTempFile("trainyard-bench-printer", ".py");
        java.nio.file.Files.writeString(printer, PRINTER);
        followLog(base, "python3 " + printer + " " + lines + " 0", "burst: printed as fast as Python can");
        followLog(base, "python3 " + printer + " " + lines + " 100000", "paced: printed at 100,000 lines/s");
        java.nio.file.Files.delete(printer);
    }

    static void followLog(String base, String command, String label) throws Exception {
        long submitted = System.nanoTime();
        String id = find(ID, post(base + "/jobs", body("bench_logs", command)).body());
        HttpResponse<java.util.stream.Stream<String>> stream = HTTP.send(
                HttpRequest.newBuilder(URI.create(base + "/jobs/" + id + "/logs/stream")).GET().build(),
                HttpResponse.BodyHandlers.ofLines());
        List<Long> lagsMicros = new ArrayList<>();
        long received = 0;
        long firstAt = 0;
        String end = null;
        boolean endEvent = false;
        for (String line : (Iterable<String>) stream.body()::iterator) {
            if (line.equals("event: end")) {
                endEvent = true;
            } else if (line.startsWith("data: ") && endEvent) {
                end = line.substring(6);
                break;
            } else if (line.startsWith("data: ")) {
                int at = line.indexOf("\"time\":\"") + 8;
                Instant time = Instant.parse(line.substring(at, line.indexOf('"', at)));
                lagsMicros.add(Duration.between(time, Instant.now()).toNanos() / 1000);
                if (received++ == 0) {
                    firstAt = System.nanoTime();
                }
            }
        }
        long finished = System.nanoTime();
        System.out.printf("logs (%s): %d lines over SSE in %.2f s from submission = %.0f lines/s end to end "
                        + "(%.0f lines/s from the first line); follower lag p50 %.1f ms, p99 %.1f ms; end: %s%n",
                label, received, (finished - submitted) / 1e9, received / ((finished - submitted) / 1e9),
                received / ((finished - firstAt) / 1e9), percentile(lagsMicros, 50) / 1e3, percentile(lagsMicros, 99) / 1e3, end);
    }

    static double percentile(List<Long> values, int p) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(index, sorted.size() - 1)));
    }
}

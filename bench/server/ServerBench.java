import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import io.trainyard.testing.JobBodies;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Measures a running Trainyard server over loopback HTTP; run by bench/server/run.sh, which starts the servers and
 * sends the submissions that load them (wrk). bench/lib.sh compiles it once and runs it with the testing module (job
 * bodies) and its dependencies on the class path: {@code server_bench <phase> <base-url> ...}. Phases:
 * submission-body and gpu-submission-body (print the JSON wrk submits), dispatch (submit-to-process-start latency of
 * no-op jobs, one at a time), dispatch-beside (the same while wrk submits beside it), drain-queue, logs (jobs
 * printing lines, followed over SSE: a cold burst, a burst, or paced; see {@link #logPasses}), slurm (on a server
 * with the Slurm backend: submit-to-RUNNING latency one job at a time, then batch jobs submitted to sbatch per second
 * in a burst; run by bench/slurm/run.sh).
 */
public class ServerBench {

    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    static final JsonMapper JSON = JsonMapper.builder().build();
    /** The token every request carries (run.sh passes the server's first admin's); none for a server without security. */
    static final String TOKEN = System.getenv().getOrDefault("TRAINYARD_TOKEN", "");

    public static void main(String[] args) throws Exception {
        String base = args.length > 1 ? args[1] : "";
        switch (args[0]) {
            case "submission-body" -> System.out.println(body("bench_submit", "pass"));
            case "gpu-submission-body" -> System.out.println(JSON.writeValueAsString(JobBodies.asJson(JobBodies.job("bench_beside", "pass")
                    .requireGpus(true))));
            case "dispatch" -> dispatchLatency(base, Integer.parseInt(args.length > 2 ? args[2] : "200"));
            case "dispatch-beside" -> dispatchLatencyBesideSubmissions(base, Integer.parseInt(args[2]));
            case "drain-queue" -> drainQueue(base);
            case "logs" -> logPasses(base, Integer.parseInt(args[2]), List.of(args).subList(3, args.length));
            case "slurm" -> slurm(base, Integer.parseInt(args.length > 2 ? args[2] : "200"));
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    /** A one-worker job whose trainer is {@code pythonProgram}, as the submission's JSON. */
    static String body(String name, String pythonProgram) {
        return JSON.writeValueAsString(JobBodies.asJson(JobBodies.job(name, pythonProgram)));
    }

    static HttpResponse<String> post(String url, String json) throws Exception {
        return HTTP.send(request(url).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    static JsonNode get(String url) throws Exception {
        return JSON.readTree(HTTP.send(request(url).GET().build(), HttpResponse.BodyHandlers.ofString()).body());
    }

    /** A request to {@code url} with the bench's token, when it has one. */
    static HttpRequest.Builder request(String url) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url));
        return TOKEN.isEmpty() ? request : request.header("Authorization", "Bearer " + TOKEN);
    }

    /** Submits, and answers the new job's id. */
    static String submit(String base, String json) throws Exception {
        return JSON.readTree(post(base + "/jobs", json).body()).get("id").asString();
    }

    static void dispatchLatency(String base, int jobs) throws Exception {
        // The first 20 jobs warm up the JIT.
        Starts starts = startLatencies(base, body("bench_dispatch", "pass"), 20, jobs, 5);
        System.out.printf("dispatch: submit-to-process-start latency over %d no-op jobs: %s%n", jobs, starts);
    }

    /**
     * The same latency (after 5 jobs to warm up), while run.sh has wrk submit jobs beside them as
     * fast as it can. Those jobs insist on a GPU, which this pool of CPU slots never has: the dispatcher claims,
     * places and fails each (no capacity), so they load the API, the database and the dispatcher without taking the
     * agent. Submitted faster than one dispatcher fails them, they pile up in the queue; the measured jobs have a
     * higher priority, so they wait for no backlog, only for the dispatcher's passes.
     */
    static void dispatchLatencyBesideSubmissions(String base, int jobs) throws Exception {
        String measured = JSON.writeValueAsString(JobBodies.asJson(JobBodies.job("bench_dispatch", "pass").priority(1)));
        Starts starts = startLatencies(base, measured, 5, jobs, 5);
        int backlog = get(base + "/queue").size();  // lists at most 1,000 per backend
        System.out.printf("dispatch beside submissions: latency over %d no-op jobs (priority 1), %d submitted jobs queued at the end "
                + "(1000 meaning 1,000 or more): %s%n", jobs, backlog, starts);
    }

    /** Waits until the queue is empty, so that the next pass does not share the dispatcher and the database with a backlog. */
    static void drainQueue(String base) throws Exception {
        long start = System.nanoTime();
        while (!get(base + "/queue").isEmpty()) {
            if (System.nanoTime() - start > Duration.ofMinutes(5).toNanos()) {
                throw new IllegalStateException("jobs were still queued after 5 minutes");
            }
            Thread.sleep(200);
        }
        System.out.printf("the queue was empty %.1f s later%n", (System.nanoTime() - start) / 1e9);
    }

    static final List<String> ENDED = List.of("SUCCEEDED", "FAILED", "CANCELLED");

    /**
     * Nanoseconds from submission ({@code createdAt}) to the start of the job's processes ({@code startedAt}: when its
     * agent had started them) and to the RUNNING event (when the server had recorded the agent's report), per job.
     */
    record Starts(List<Long> processStarted, List<Long> runningRecorded) {
        @Override
        public String toString() {
            return "p50 %.1f ms, p99 %.1f ms, max %.1f ms (RUNNING recorded: p50 %.1f ms, p99 %.1f ms, max %.1f ms)".formatted(
                    percentile(processStarted, 50) / 1e6, percentile(processStarted, 99) / 1e6, percentile(processStarted, 100) / 1e6,
                    percentile(runningRecorded, 50) / 1e6, percentile(runningRecorded, 99) / 1e6, percentile(runningRecorded, 100) / 1e6);
        }
    }

    /**
     * Submits {@code warmUp + jobs} jobs of this body one at a time, each after the previous one ended (polled every
     * {@code pollMillis}), and answers the {@link Starts} of all but the first {@code warmUp}.
     */
    static Starts startLatencies(String base, String json, int warmUp, int jobs, long pollMillis) throws Exception {
        List<Long> latencies = new ArrayList<>();
        List<Long> recorded = new ArrayList<>();
        for (int i = 0; i < warmUp + jobs; i++) {
            String id = submit(base, json);
            JsonNode job = get(base + "/jobs/" + id);
            while (!ENDED.contains(job.get("state").asString())) {
                Thread.sleep(pollMillis);
                job = get(base + "/jobs/" + id);
            }
            if (i >= warmUp) {
                if (job.get("startedAt").isNull()) {
                    throw new IllegalStateException("job " + id + " ended without starting: " + job);
                }
                Instant created = Instant.parse(job.get("createdAt").asString());
                latencies.add(Duration.between(created, Instant.parse(job.get("startedAt").asString())).toNanos());
                for (JsonNode event : get(base + "/jobs/" + id + "/events")) {
                    if (event.get("to").asString().equals("RUNNING")) {
                        recorded.add(Duration.between(created, Instant.parse(event.get("at").asString())).toNanos());
                    }
                }
            }
        }
        return new Starts(latencies, recorded);
    }

    /**
     * Slurm: the latency from submission until Trainyard shows the job RUNNING, one no-op job at a time on an idle
     * cluster (Slurm's scheduling and start, plus up to a poll interval until squeue shows it); then {@code burst}
     * jobs submitted as fast as one client can, and how fast the backend hands them to sbatch (from each job's
     * "submitted to Slurm" event, first to last).
     */
    static void slurm(String base, int burst) throws Exception {
        String json = body("bench_slurm", "pass").replaceFirst("\\{", "{\"backend\":\"slurm\",");
        // The first 3 jobs warm up the JIT and the nodes' caches; a Slurm job takes seconds, so polled less often.
        List<Long> latencies = startLatencies(base, json, 3, 20, 50).runningRecorded();
        System.out.printf("slurm: submit-to-RUNNING latency over %d no-op jobs, one at a time: p50 %.0f ms, p99 %.0f ms, max %.0f ms%n",
                latencies.size(), percentile(latencies, 50) / 1e6, percentile(latencies, 99) / 1e6, percentile(latencies, 100) / 1e6);

        List<String> ids = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < burst; i++) {
            ids.add(submit(base, json));
        }
        double postSeconds = (System.nanoTime() - start) / 1e9;
        List<Instant> submitted = new ArrayList<>();
        for (String id : ids) {
            Instant at = null;
            while (at == null) {
                for (JsonNode event : get(base + "/jobs/" + id + "/events")) {
                    if (event.path("message").asString("").startsWith("submitted to Slurm")) {
                        at = Instant.parse(event.get("at").asString());
                    }
                }
                if (at == null) {
                    Thread.sleep(200);
                }
            }
            submitted.add(at);
        }
        Collections.sort(submitted);
        double sbatchSeconds = Duration.between(submitted.getFirst(), submitted.getLast()).toNanos() / 1e9;
        System.out.printf("slurm: %d jobs posted in %.2f s; handed to sbatch in %.2f s from the first to the last = %.1f sbatch/s%n",
                burst, postSeconds, sbatchSeconds, (burst - 1) / sbatchSeconds);
    }

    /**
     * A trainer that prints {@code lines} lines, as fast as it can ({@code rate} 0) or paced at {@code rate}
     * lines/s; the two are set by a line put before it.
     */
    static final String PRINTER = """
            import sys, time
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

    /**
     * Log passes, each a job printing {@code lines} lines, followed by this one JVM, as a long-running client would: a
     * fresh follower JVM per pass compiled its own code meanwhile, and on 2 cores that took a quarter of the CPU from
     * the server being measured (perf: 2.6 µs a line of 1,000,000). The passes are named in {@code passes}, or, if none
     * are, read from stdin one a line until it ends, each one's line printed as it ends, so that run.sh can measure
     * the CPU of each pass alone.
     */
    static void logPasses(String base, int lines, List<String> passes) throws Exception {
        if (!passes.isEmpty()) {
            for (String pass : passes) {
                logThroughput(base, lines, pass);
            }
            return;
        }
        BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in));
        for (String pass = stdin.readLine(); pass != null; pass = stdin.readLine()) {
            logThroughput(base, lines, pass);
            System.out.flush();
        }
    }

    /**
     * One log pass of a job printing {@code lines} lines: "cold" and "burst" print as fast as Python can (the first on
     * a fresh server: measured on 2 cores, C2 compiled for 5 s of CPU during the first 300,000-line pass, as much as
     * the requests themselves took), "paced" at 100,000 lines/s.
     */
    static void logThroughput(String base, int lines, String pass) throws Exception {
        switch (pass) {
            case "cold" -> followLog(base, "lines, rate = %d, 0\n".formatted(lines) + PRINTER, "first burst, the server's log path cold");
            case "burst" -> followLog(base, "lines, rate = %d, 0\n".formatted(lines) + PRINTER, "burst: printed as fast as Python can");
            case "paced" -> followLog(base, "lines, rate = %d, 100000\n".formatted(lines) + PRINTER, "paced: printed at 100,000 lines/s");
            default -> throw new IllegalArgumentException("no log pass '" + pass + "': cold, burst or paced");
        }
    }

    /** The follower's lag is taken of one line in this many. */
    static final int LAG_SAMPLED_EVERY = 8;

    static void followLog(String base, String printer, String label) throws Exception {
        long submitted = System.nanoTime();
        String id = submit(base, body("bench_logs", printer));
        // When the job ended, i.e. its last line was stored (a run is marked ended after its lines): the ingest
        // rate apart from the follower's, polled beside it.
        long[] endedAt = {0};
        Thread ended = Thread.ofVirtual().start(() -> {
            try {
                while (!get(base + "/jobs/" + id).get("state").asString().equals("SUCCEEDED")) {
                    Thread.sleep(50);
                }
                endedAt[0] = System.nanoTime();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        HttpResponse<java.util.stream.Stream<String>> stream = HTTP.send(
                request(base + "/jobs/" + id + "/logs/stream").GET().build(),
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
                // Only the time, found by hand, and of every 8th line: parsing each of a million lines took 2 µs of
                // CPU a line, which the server being measured lacked on this machine's shared cores.
                if (received % LAG_SAMPLED_EVERY == 0) {
                    int at = line.indexOf("\"time\":\"") + 8;
                    Instant time = Instant.parse(line.substring(at, line.indexOf('"', at)));
                    lagsMicros.add(Duration.between(time, Instant.now()).toNanos() / 1000);
                }
                if (received++ == 0) {
                    firstAt = System.nanoTime();
                }
            }
        }
        long finished = System.nanoTime();
        ended.join();
        System.out.printf("logs (%s): %d lines over SSE in %.2f s from submission = %.0f lines/s end to end "
                        + "(%.0f lines/s from the first line); all stored %.2f s after submission (%.0f lines/s); "
                        + "follower lag p50 %.1f ms, p99 %.1f ms; end: %s%n",
                label, received, (finished - submitted) / 1e9, received / ((finished - submitted) / 1e9),
                received / ((finished - firstAt) / 1e9), (endedAt[0] - submitted) / 1e9, received / ((endedAt[0] - submitted) / 1e9),
                percentile(lagsMicros, 50) / 1e3, percentile(lagsMicros, 99) / 1e3, end);
    }

    static double percentile(List<Long> values, int p) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(index, sorted.size() - 1)));
    }
}

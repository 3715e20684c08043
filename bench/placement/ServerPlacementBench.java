import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

import io.trainyard.protocol.Assignment;
import io.trainyard.protocol.Ended;
import io.trainyard.protocol.Gpu;
import io.trainyard.protocol.Heartbeat;
import io.trainyard.protocol.Registered;
import io.trainyard.protocol.Registration;
import io.trainyard.protocol.RunEnd;
import io.trainyard.protocol.Started;
import io.trainyard.protocol.Work;
import io.trainyard.testing.JobBodies;
import tools.jackson.databind.json.JsonMapper;

/**
 * The scheduler's PostgreSQL placement path, end to end: a real Trainyard server (its dispatcher claiming
 * jobs from PostgreSQL, best-fit placement over agents read from PostgreSQL, the agent protocol over HTTP)
 * driven by simulated agents in this process. Each agent is a virtual thread that registers and then
 * long-polls {@code POST /agents/{id}/heartbeat}; for each assignment it reports {@code started}, holds the
 * job's GPUs for the job's simulated duration and reports {@code ended}. No trainer process ever runs.
 * Where {@link PlacementBench} measures the placement policy in memory, this measures what the server makes
 * of it: claims, placement reads, state changes and agent round trips, all through PostgreSQL.
 *
 * <p>Run by bench/placement/run.sh, which starts a fresh server (embedded PostgreSQL, -Xmx512m, security on,
 * each simulated agent with a token of its own, no embedded agent) per scenario. Java's source launcher runs it, with the testing
 * module (job bodies), the protocol module (what agents send and read) and their dependencies on the class
 * path, as run.sh builds it:
 * <pre>
 * java -cp CLASSPATH ServerPlacementBench.java throughput BASE_URL [agents=100] [gpusPerAgent=8] [jobs=10000] [minSeconds=2] [maxSeconds=8]
 * java -cp CLASSPATH ServerPlacementBench.java running    BASE_URL [agents=250] [gpusPerAgent=8] [jobs=2000] [probes=50]
 * </pre>
 * <ul>
 * <li>{@code throughput}: jobs of 1, 1, 1, 1, 2, 2, 4 or 8 GPUs (seed 42) with uniform durations are all
 * submitted first, with no agent registered (they stay QUEUED), then every agent registers at once. So the
 * dispatcher works against a deep queue from its first placement (the worst case for the claim query), the
 * burst that fills an empty pool is a clean measure of placement speed, and submissions (a different code
 * path, benchmarked by bench/server) do not compete with placement for the two cores. Prints placements/s
 * (once the pool is full they cannot outpace the jobs/s the pool frees, which is printed beside them), the
 * share of GPUs running jobs while jobs wait (sampled every 250 ms), the time from the last submission until
 * all jobs are done and the server's heap.</li>
 * <li>{@code running}: {@code jobs} 1-GPU jobs that never end by themselves, on agents x gpusPerAgent GPUs
 * (plus enough spare agents for the probes); once all run: the server's heap (it runs with -Xmx512m) and the
 * server's and the machine's CPU while nothing changes (the cost of tracking them: heartbeats, their
 * re-checks, idle dispatch passes), then
 * {@code probes} more 1-GPU jobs submitted one at a time, each timed from submission to assignment, i.e. a
 * placement with that many jobs running. Then everything is ended.</li>
 * </ul>
 * Both end with checks: no GPU handed to two running jobs, no job assigned twice, no error answers, and the
 * requests that had to be resent after an I/O error (as a real agent resends its reports).
 */
public class ServerPlacementBench {

    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    static final JsonMapper JSON = JsonMapper.builder().build();
    /** The token of the server's first admin (run.sh reads it from the server's data folder); agents get their own. */
    static final String ADMIN = System.getenv().getOrDefault("TRAINYARD_TOKEN", "");
    static final long WAIT_MILLIS = 2_000;
    static final int SUBMIT_CLIENTS = 16;
    static final String BENCH_RUN = Long.toString(System.currentTimeMillis(), 36);

    static String base;

    // --- what the simulated agents see; shared by all agents of a scenario ---
    static final AtomicInteger assigned = new AtomicInteger();   // assignments received (jobs out of the queue)
    static final AtomicInteger started = new AtomicInteger();    // runs whose started report was accepted
    static final AtomicInteger ended = new AtomicInteger();      // runs whose ended report was accepted
    static final AtomicInteger busyGpus = new AtomicInteger();   // GPUs of started-but-not-ended runs
    static final AtomicInteger doubleBooked = new AtomicInteger(); // an assignment on a GPU the agent still runs a job on
    static final AtomicInteger duplicateAssignments = new AtomicInteger();
    static final AtomicLong firstAssignedAt = new AtomicLong();
    static final AtomicLong firstEndSentAt = new AtomicLong();
    static final Map<UUID, Long> assignedAt = new ConcurrentHashMap<>();
    static final Map<UUID, Long> runningAt = new ConcurrentHashMap<>();
    static final Map<String, Integer> errors = new ConcurrentHashMap<>();
    static final Map<String, Integer> transportRetries = new ConcurrentHashMap<>();
    static final AtomicInteger settled = new AtomicInteger();    // runs whose ended report was answered, or given up
    static final List<String> errorSamples = Collections.synchronizedList(new ArrayList<>());
    static volatile long queueEmptyAt;
    static volatile int totalJobs;
    /** Durations of jobs by id, in ms; a job not in here (or with -1) runs until {@link #releaseAll} opens. */
    static final Map<UUID, Long> durations = new ConcurrentHashMap<>();
    static final CountDownLatch releaseAll = new CountDownLatch(1);
    static volatile boolean stopping;
    /** What the scenario is doing now, to tell when the heap peaked. */
    static volatile String phase = "starting";

    record JobSpec(int gpus, long durationMillis) {
    }

    public static void main(String[] args) throws Exception {
        base = args[1];
        switch (args[0]) {
            case "throughput" -> throughput(intArg(args, 2, 100), intArg(args, 3, 8), intArg(args, 4, 10_000),
                    Double.parseDouble(args.length > 5 ? args[5] : "2"), Double.parseDouble(args.length > 6 ? args[6] : "8"));
            case "running" -> running(intArg(args, 2, 250), intArg(args, 3, 8), intArg(args, 4, 2_000), intArg(args, 5, 50));
            default -> throw new IllegalArgumentException("unknown scenario " + args[0]);
        }
        System.exit(0);
    }

    static int intArg(String[] args, int index, int fallback) {
        return args.length > index ? Integer.parseInt(args[index]) : fallback;
    }

    // ------------------------------------------------------------------------------------------------
    // Scenario 1: placement throughput and GPU utilisation while work waits
    // ------------------------------------------------------------------------------------------------

    static void throughput(int agentCount, int gpusPerAgent, int jobCount, double minSeconds, double maxSeconds) throws Exception {
        int totalGpus = agentCount * gpusPerAgent;
        System.out.printf("== PostgreSQL path: %d agents x %d GPUs, %d jobs (1/1/1/1/2/2/4/8 GPUs, %.0f-%.0f s each)%n",
                agentCount, gpusPerAgent, jobCount, minSeconds, maxSeconds);
        Random random = new Random(42);
        int[] sizes = {1, 1, 1, 1, 2, 2, 4, 8};
        List<JobSpec> specs = new ArrayList<>();
        double gpuSeconds = 0;
        for (int i = 0; i < jobCount; i++) {
            int gpus = Math.min(sizes[random.nextInt(sizes.length)], gpusPerAgent);
            double seconds = minSeconds + random.nextDouble() * (maxSeconds - minSeconds);
            specs.add(new JobSpec(gpus, Math.round(seconds * 1000)));
            gpuSeconds += gpus * seconds;
        }
        totalJobs = jobCount;
        HeapSampler heap = HeapSampler.start();

        // 1. Submit everything while no agent is registered: the jobs stay QUEUED.
        long submitStart = System.nanoTime();
        phase = "submitting";
        List<UUID> ids = submitAll(specs);
        long lastSubmittedAt = System.nanoTime();
        double submitSeconds = (lastSubmittedAt - submitStart) / 1e9;
        System.out.printf("submitted: %d jobs by %d clients in %.1f s = %.0f submissions/s (dispatcher on, no agent yet)%n",
                ids.size(), SUBMIT_CLIENTS, submitSeconds, ids.size() / submitSeconds);

        // 2. Register every agent at once and let them run the queue dry.
        long agentsAt = System.nanoTime();
        phase = "placing";
        List<SimAgent> agents = startAgents("sim", agentCount, gpusPerAgent);
        List<Double> waitingSamples = new ArrayList<>();
        Thread sampler = Thread.ofPlatform().daemon().start(() -> {
            while (!stopping) {
                if (assigned.get() < totalJobs) {
                    synchronized (waitingSamples) {
                        waitingSamples.add(busyGpus.get() / (double) totalGpus);
                    }
                }
                sleep(250);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(30);
        long lastReportAt = System.nanoTime();
        long lastProgressAt = System.nanoTime();
        int lastProgress = 0;
        while (ended.get() < jobCount && System.nanoTime() < deadline) {
            Thread.sleep(100);
            long now = System.nanoTime();
            if (assigned.get() + ended.get() != lastProgress) {
                lastProgress = assigned.get() + ended.get();
                lastProgressAt = now;
            } else if (now - lastProgressAt > 60e9 && busyGpus.get() == 0) {
                // Nothing placed, nothing running for a minute: the rest will not come (e.g. failed server-side).
                System.out.printf("STALLED: nothing placed or ended for 60 s; server's jobs by state: %s%n", jobCounts());
                break;
            }
            if (now - lastReportAt > 15e9) { // progress to stderr, so a slow run is visibly alive
                lastReportAt = now;
                System.err.printf("  ... %.0f s: assigned %d, ended %d, GPUs busy %d/%d%n", (now - agentsAt) / 1e9,
                        assigned.get(), ended.get(), busyGpus.get(), totalGpus);
            }
        }
        long doneAt = System.nanoTime();
        stopping = true;
        sampler.join();
        stopAgents(agents);
        heap.stop();

        boolean complete = ended.get() == jobCount;
        long queueEmpty = queueEmptyAt != 0 ? queueEmptyAt : doneAt;
        double placingSeconds = (queueEmpty - agentsAt) / 1e9;
        System.out.printf("placements/s: %.1f while jobs waited (%d placements in %.1f s from the agents' registration until the queue was empty; first placement after %.2f s)%n",
                assigned.get() / placingSeconds, assigned.get(), placingSeconds,
                firstAssignedAt.get() == 0 ? Double.NaN : (firstAssignedAt.get() - agentsAt) / 1e9);
        // The burst: placements into the empty pool, before any job ended (so none waited for capacity to free).
        long firstEnd = firstEndSentAt.get() == 0 ? Long.MAX_VALUE : firstEndSentAt.get();
        int burstCount = 0;
        long burstLast = 0;
        for (long at : assignedAt.values()) {
            if (at < firstEnd) {
                burstCount++;
                burstLast = Math.max(burstLast, at);
            }
        }
        if (burstCount > 1) {
            double burst = (burstLast - firstAssignedAt.get()) / 1e9;
            System.out.printf("initial burst: %d placements into the empty pool in %.2f s = %.0f placements/s (first to last placement before any job ended)%n",
                    burstCount, burst, (burstCount - 1) / burst);
        }
        // The claim reads the whole queue, so its speed depends on how deep the queue is: placements/s by depth.
        List<Long> times = new ArrayList<>(assignedAt.values());
        Collections.sort(times);
        if (times.size() >= 8) {
            StringBuilder bands = new StringBuilder();
            int quarter = times.size() / 4;
            for (int q = 0; q < 4; q++) {
                int from = q * quarter;
                int to = q == 3 ? times.size() - 1 : (q + 1) * quarter;
                double seconds = (times.get(to) - times.get(from)) / 1e9;
                bands.append(String.format("%s%d-%d queued: %.1f", q == 0 ? "" : ", ", jobCount - from, jobCount - to, (to - from) / seconds));
            }
            System.out.printf("placements/s by queue depth: %s (the pool frees %.1f jobs/s when 100%% busy, which bounds it)%n",
                    bands, jobCount / (gpuSeconds / totalGpus));
        }
        List<Double> samples;
        synchronized (waitingSamples) {
            samples = new ArrayList<>(waitingSamples);
        }
        System.out.printf("GPU busy while jobs wait: mean %.1f%%, p50 %.1f%% (%d samples every 250 ms; target >= 95%%)%n",
                100 * mean(samples), 100 * percentileD(samples, 50), samples.size());
        double ideal = gpuSeconds / totalGpus;
        System.out.printf("makespan: %.1f s from the last submission until all jobs were done (%s); %.1f s from the agents' registration, vs %.1f s at 100%% of %d GPUs%n",
                (doneAt - lastSubmittedAt) / 1e9, complete ? "all " + jobCount + " ended" : "INCOMPLETE: " + ended.get() + " of " + jobCount + " ended",
                (doneAt - agentsAt) / 1e9, ideal, totalGpus);
        List<Long> toRunning = new ArrayList<>();
        for (Map.Entry<UUID, Long> entry : runningAt.entrySet()) {
            Long at = assignedAt.get(entry.getKey());
            if (at != null) {
                toRunning.add(entry.getValue() - at);
            }
        }
        System.out.printf("agent round trip: assignment received -> started acknowledged p50 %.1f ms, p99 %.1f ms%n",
                percentile(toRunning, 50) / 1e6, percentile(toRunning, 99) / 1e6);
        System.out.printf("server heap: max %.0f MB used (of -Xmx512m; %d samples, 1/s; garbage included)%s",
                heap.maxBytes / 1e6, heap.samples, heap.summary());
        printChecks(agents);
    }

    /** G1's live data after its last major (or mixed) collection, if there was one. */
    static String liveData() {
        try {
            double live = metric(scrape(), "jvm_gc_live_data_size_bytes");
            return Double.isNaN(live) || live == 0 ? "" : String.format("; live data after the last major GC %.0f MB", live / 1e6);
        } catch (Exception e) {
            return "";
        }
    }

    // ------------------------------------------------------------------------------------------------
    // Scenario 2: thousands of running jobs tracked within 512 MB
    // ------------------------------------------------------------------------------------------------

    static void running(int agentCount, int gpusPerAgent, int jobCount, int probes) throws Exception {
        int spareAgents = (probes + gpusPerAgent - 1) / gpusPerAgent;
        System.out.printf("== PostgreSQL path: %d agents x %d GPUs (+%d spare agents for %d probe jobs), %d long-running 1-GPU jobs%n",
                agentCount, gpusPerAgent, spareAgents, probes, jobCount);
        totalJobs = jobCount + probes;
        HeapSampler heap = HeapSampler.start();
        List<JobSpec> specs = Collections.nCopies(jobCount, new JobSpec(1, -1));
        long submitStart = System.nanoTime();
        phase = "submitting";
        List<UUID> ids = submitAll(specs);
        double submitSeconds = (System.nanoTime() - submitStart) / 1e9;
        System.out.printf("submitted: %d jobs by %d clients in %.1f s = %.0f submissions/s (no agent yet)%n",
                ids.size(), SUBMIT_CLIENTS, submitSeconds, ids.size() / submitSeconds);

        long agentsAt = System.nanoTime();
        phase = "ramping up";
        List<SimAgent> agents = startAgents("run", agentCount + spareAgents, gpusPerAgent);
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        long lastReportAt = System.nanoTime();
        long lastProgressAt = System.nanoTime();
        int lastProgress = 0;
        while (started.get() < jobCount && System.nanoTime() < deadline) {
            Thread.sleep(50);
            if (started.get() != lastProgress) {
                lastProgress = started.get();
                lastProgressAt = System.nanoTime();
            } else if (System.nanoTime() - lastProgressAt > 60e9) {
                System.out.printf("STALLED: no job started for 60 s; server's jobs by state: %s%n", jobCounts());
                break;
            }
            if (System.nanoTime() - lastReportAt > 15e9) {
                lastReportAt = System.nanoTime();
                System.err.printf("  ... %.0f s: assigned %d, running %d%n", (lastReportAt - agentsAt) / 1e9, assigned.get(), started.get());
            }
        }
        long allRunningAt = System.nanoTime();
        double ramp = (allRunningAt - agentsAt) / 1e9;
        System.out.printf("ramp: %d of %d jobs RUNNING %.1f s after the agents registered = %.1f placements/s (first placement after %.2f s)%n",
                started.get(), jobCount, ramp, started.get() / ramp,
                firstAssignedAt.get() == 0 ? Double.NaN : (firstAssignedAt.get() - agentsAt) / 1e9);

        // Steady state: nothing changes, the agents only heartbeat.
        phase = "all running";
        Thread.sleep(5_000);
        CpuMeter cpu = CpuMeter.start();
        double serverCpuBefore = metric(scrape(), "process_cpu_time_ns_total");
        long windowStart = System.nanoTime();
        List<Long> heapSamples = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            String metrics = scrape();
            long used = heapUsed(metrics);
            if (used > 0) {
                heapSamples.add(used);
            }
            Thread.sleep(500);
        }
        double cpuBusy = cpu.busyFraction();
        double serverCores = (metric(scrape(), "process_cpu_time_ns_total") - serverCpuBefore) / (System.nanoTime() - windowStart);
        System.out.printf("%d running jobs: heap used %.0f MB (min %.0f, max %.0f of %d samples over 5 s; Xmx 512 MB)%s%n",
                started.get(), mean(toDoubles(heapSamples)) / 1e6, percentile(heapSamples, 0) / 1e6,
                percentile(heapSamples, 100) / 1e6, heapSamples.size(), liveData());
        System.out.printf("idle with %d running: server JVM %.2f cores (its JIT compiler's included); machine CPU %.0f%% of %d cores (server, PostgreSQL, the %d simulated agents and anything else running)%n",
                started.get(), serverCores, 100 * cpuBusy, Runtime.getRuntime().availableProcessors(), agents.size());

        // Placements with that many jobs running: one job at a time, onto the spare agents.
        List<Long> latencies = new ArrayList<>();
        List<Long> toRunning = new ArrayList<>();
        phase = "probing";
        for (int i = 0; i < probes; i++) {
            long t = System.nanoTime();
            UUID id = submit("bench_probe_" + i, new JobSpec(1, -1));
            while (!runningAt.containsKey(id) && System.nanoTime() - t < 60e9) {
                Thread.sleep(1);
            }
            Long at = assignedAt.get(id);
            if (at != null) {
                latencies.add(at - t);
                toRunning.add(runningAt.getOrDefault(id, at) - t);
            }
        }
        System.out.printf("placement with %d running: submit -> assignment received p50 %.1f ms, max %.1f ms; submit -> RUNNING p50 %.1f ms (%d probes, one at a time)%n",
                jobCount, percentile(latencies, 50) / 1e6, percentile(latencies, 100) / 1e6, percentile(toRunning, 50) / 1e6, latencies.size());

        long endAt = System.nanoTime();
        phase = "ending all at once";
        releaseAll.countDown();
        deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (settled.get() < assigned.get() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        System.out.printf("ended: %d of %d jobs reported ended in %.1f s%n", ended.get(), assigned.get(), (System.nanoTime() - endAt) / 1e9);
        stopping = true;
        stopAgents(agents);
        heap.stop();
        System.out.printf("server heap: max %.0f MB used over the whole scenario (of -Xmx512m; %d samples, 1/s; garbage included)%s",
                heap.maxBytes / 1e6, heap.samples, heap.summary());
        printChecks(agents);
    }

    static void printChecks(List<SimAgent> agents) {
        int held = 0;
        for (SimAgent agent : agents) {
            held += agent.heldCount();
        }
        StringBuilder line = new StringBuilder(String.format(
                "checks: %d GPU double-bookings, %d duplicate assignments, %d GPUs still held at the end, errors: %s; requests resent after an I/O error: %s",
                doubleBooked.get(), duplicateAssignments.get(), held, errors.isEmpty() ? "none" : errors,
                transportRetries.isEmpty() ? "none" : transportRetries));
        System.out.println(line);
        synchronized (errorSamples) {
            for (String sample : errorSamples) {
                System.out.println("  error: " + sample);
            }
        }
    }

    // ------------------------------------------------------------------------------------------------
    // Submissions
    // ------------------------------------------------------------------------------------------------

    static List<UUID> submitAll(List<JobSpec> specs) throws Exception {
        UUID[] ids = new UUID[specs.size()];
        AtomicInteger next = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(SUBMIT_CLIENTS);
        List<Future<?>> clients = new ArrayList<>();
        for (int c = 0; c < SUBMIT_CLIENTS; c++) {
            clients.add(pool.submit(() -> {
                for (int i = next.getAndIncrement(); i < specs.size(); i = next.getAndIncrement()) {
                    ids[i] = submit("bench_" + i, specs.get(i));
                }
                return null;
            }));
        }
        for (Future<?> client : clients) {
            client.get();
        }
        pool.shutdown();
        return List.of(ids);
    }

    /** Submits a job taking {@code spec.gpus()} GPUs; its simulated duration is recorded before any agent can see it. */
    static UUID submit(String name, JobSpec spec) throws Exception {
        // The trainer never runs (no real agent), so any program will do.
        Map<String, Object> body = JobBodies.asJson(JobBodies.job(name, "import time\ntime.sleep(1)\n", spec.gpus()).requireGpus(true));
        String key = "bench-" + BENCH_RUN + "-" + name; // so a resent submission is not a second job
        for (int attempt = 1; ; attempt++) {
            HttpResponse<String> response = send("POST", "/jobs", body, ADMIN, key).response();
            if (response.statusCode() == 201 || response.statusCode() == 200) {
                UUID id = UUID.fromString(JSON.readTree(response.body()).get("id").asString());
                durations.put(id, spec.durationMillis());
                return id;
            }
            error("submit " + response.statusCode(), response.body());
            if (attempt == 3) {
                throw new IllegalStateException("submission failed: " + response.statusCode() + " " + response.body());
            }
        }
    }

    // Scenario 1 starts its agents only once every submission returned, so every duration is known by then;
    // a job whose duration is unknown (or -1) runs until releaseAll opens.
    static long durationOf(UUID jobId) {
        return durations.getOrDefault(jobId, -1L);
    }

    // ------------------------------------------------------------------------------------------------
    // Simulated agents
    // ------------------------------------------------------------------------------------------------

    /**
     * A token for the agent id, made by the admin as an operator makes one for each host's agent; none when the
     * server has no security (an older build, for before/after comparisons: run.sh then finds no admin token).
     */
    static String agentToken(String agentId) throws Exception {
        if (ADMIN.isEmpty()) {
            return "";
        }
        HttpResponse<String> created = send("POST", "/agent-tokens", Map.of("agentId", agentId), ADMIN);
        if (created.statusCode() != 201) {
            throw new IllegalStateException("no token for agent " + agentId + ": " + created.statusCode() + " " + created.body());
        }
        return JSON.readTree(created.body()).get("token").asString();
    }

    static List<SimAgent> startAgents(String prefix, int count, int gpusPerAgent) throws Exception {
        List<SimAgent> agents = new ArrayList<>();
        CountDownLatch registered = new CountDownLatch(count);
        for (int a = 0; a < count; a++) {
            SimAgent agent = new SimAgent(String.format("%s-%03d", prefix, a), gpusPerAgent, registered);
            agents.add(agent);
            agent.thread = Thread.ofVirtual().name(agent.id).start(agent::run);
        }
        registered.await(2, TimeUnit.MINUTES);
        return agents;
    }

    static void stopAgents(List<SimAgent> agents) throws InterruptedException {
        stopping = true;
        for (SimAgent agent : agents) {
            agent.thread.join(Duration.ofSeconds(10));
        }
    }

    static final class SimAgent {
        final String id;
        final int gpuCount;
        final CountDownLatch registered;
        final Set<UUID> runs = ConcurrentHashMap.newKeySet(); // assigned and not yet reported ended
        final UUID[] gpuHolder;                               // the job each GPU runs, or null
        final String token;                                   // this agent's own, valid for its id only
        volatile long epoch;
        Thread thread;

        SimAgent(String id, int gpuCount, CountDownLatch registered) throws Exception {
            this.id = id;
            this.gpuCount = gpuCount;
            this.registered = registered;
            this.gpuHolder = new UUID[gpuCount];
            this.token = agentToken(id);
        }

        synchronized int heldCount() {
            int held = 0;
            for (UUID holder : gpuHolder) {
                held += holder == null ? 0 : 1;
            }
            return held;
        }

        void run() {
            try {
                List<Gpu> gpus = IntStream.range(0, gpuCount).mapToObj(g -> new Gpu(g, "Simulated GPU", 81559)).toList();
                HttpResponse<String> response = send("PUT", "/agents/" + id, new Registration("host-" + id, gpus, 8), token);
                if (response.statusCode() != 200) {
                    error("register " + response.statusCode(), response.body());
                    return;
                }
                epoch = JSON.readValue(response.body(), Registered.class).epoch();
                registered.countDown();
                while (!stopping) {
                    try {
                        heartbeat();
                    } catch (java.io.IOException e) { // resent 4 times already; keep heartbeating, as an agent would
                        error("heartbeat " + e.getClass().getSimpleName(), id + ": " + e.getMessage());
                        Thread.sleep(1_000);
                    }
                }
            } catch (Exception e) {
                error("agent " + e.getClass().getSimpleName(), id + ": " + e.getMessage());
            } finally {
                if (registered.getCount() > 0 && epoch == 0) {
                    registered.countDown();
                }
            }
        }

        void heartbeat() throws Exception {
            HttpResponse<String> response = send("POST", "/agents/" + id + "/heartbeat?waitMillis=" + WAIT_MILLIS,
                    new Heartbeat(epoch, List.copyOf(runs), List.of(), null), token);
            if (response.statusCode() != 200) {
                error("heartbeat " + response.statusCode(), id + ": " + response.body());
                Thread.sleep(500);
                return;
            }
            for (Assignment assignment : JSON.readValue(response.body(), Work.class).assignments()) {
                UUID jobId = assignment.jobId();
                int attempt = assignment.attempt();
                List<Integer> gpus = assignment.gpus();
                if (!runs.add(jobId)) {
                    duplicateAssignments.incrementAndGet();
                    continue;
                }
                take(jobId, gpus);
                long now = System.nanoTime();
                firstAssignedAt.compareAndSet(0, now);
                assignedAt.put(jobId, now);
                if (assigned.incrementAndGet() == totalJobs) {
                    queueEmptyAt = now;
                }
                Thread.ofVirtual().start(() -> runJob(jobId, attempt, gpus));
            }
        }

        synchronized void take(UUID jobId, List<Integer> gpus) {
            for (int gpu : gpus) {
                if (gpu < 0 || gpu >= gpuCount || gpuHolder[gpu] != null) {
                    doubleBooked.incrementAndGet();
                    error("double booking", id + " GPU " + gpu + " assigned to " + jobId + " while "
                            + (gpu >= 0 && gpu < gpuCount ? gpuHolder[gpu] : "no such GPU") + " runs");
                } else {
                    gpuHolder[gpu] = jobId;
                }
            }
        }

        synchronized void free(UUID jobId, List<Integer> gpus) {
            for (int gpu : gpus) {
                if (gpu >= 0 && gpu < gpuCount && jobId.equals(gpuHolder[gpu])) {
                    gpuHolder[gpu] = null;
                }
            }
        }

        void runJob(UUID jobId, int attempt, List<Integer> gpus) {
            String run = "/agents/" + id + "/runs/" + jobId + "/" + attempt;
            try {
                HttpResponse<String> response = send("POST", run + "/started", new Started(epoch, "{\"workers\":[]}", Map.of(), null, null), token);
                if (response.statusCode() != 200) {
                    error("started " + response.statusCode(), response.body());
                    free(jobId, gpus);
                    runs.remove(jobId);
                    return;
                }
                runningAt.put(jobId, System.nanoTime());
                started.incrementAndGet();
                busyGpus.addAndGet(gpus.size());
                long duration = durationOf(jobId);
                if (duration >= 0) {
                    Thread.sleep(duration);
                } else {
                    releaseAll.await();
                }
                busyGpus.addAndGet(-gpus.size());
                // Freed here before the report: the server may hand the GPUs out the moment it commits the end.
                free(jobId, gpus);
                long now = System.nanoTime();
                firstEndSentAt.compareAndSet(0, now);
                Sent end = send("POST", run + "/ended", new Ended(epoch, RunEnd.succeeded()), token, null);
                // 409 to a resend: the first one was taken after all, and the attempt is over.
                if (end.response().statusCode() == 204 || (end.response().statusCode() == 409 && end.attempts() > 1)) {
                    ended.incrementAndGet();
                } else {
                    error("ended " + end.response().statusCode(), end.response().body());
                }
            } catch (Exception e) {
                error("run " + e.getClass().getSimpleName(), jobId + ": " + e.getMessage());
            } finally {
                runs.remove(jobId);
                settled.incrementAndGet();
            }
        }
    }

    // ------------------------------------------------------------------------------------------------
    // Server metrics: heap from /actuator/prometheus, machine CPU from /proc/stat
    // ------------------------------------------------------------------------------------------------

    static final class HeapSampler {
        volatile long maxBytes;
        volatile long maxLiveBytes;
        volatile String maxPhase = "";
        volatile String maxLivePhase = "";
        volatile int samples;
        volatile boolean stop;
        Thread thread;

        static HeapSampler start() {
            HeapSampler sampler = new HeapSampler();
            sampler.thread = Thread.ofPlatform().daemon().start(() -> {
                while (!sampler.stop) {
                    try {
                        String metrics = scrape();
                        long used = heapUsed(metrics);
                        if (used > 0) {
                            if (used > sampler.maxBytes) {
                                sampler.maxBytes = used;
                                sampler.maxPhase = phase;
                            }
                            double live = metric(metrics, "jvm_gc_live_data_size_bytes");
                            if (!Double.isNaN(live) && live > sampler.maxLiveBytes) {
                                sampler.maxLiveBytes = (long) live;
                                sampler.maxLivePhase = phase;
                            }
                            sampler.samples++;
                        }
                    } catch (Exception e) {
                        error("prometheus " + e.getClass().getSimpleName(), String.valueOf(e.getMessage()));
                    }
                    sleep(1_000);
                }
            });
            return sampler;
        }

        /** When the peaks were, and G1's live data after its major collections (which is 0 until one ran). */
        String summary() {
            return String.format(", while %s; live data after major GCs: max %.0f MB%s%n", maxPhase, maxLiveBytes / 1e6,
                    maxLiveBytes == 0 ? "" : ", while " + maxLivePhase);
        }

        void stop() throws InterruptedException {
            stop = true;
            thread.join();
        }
    }

    static String scrape() throws Exception {
        return send("GET", "/actuator/prometheus", null, ADMIN).body();
    }

    /** The server's {@code trainyard_jobs{state}} gauges (refreshed by the server every 2 s). */
    static String jobCounts() {
        try {
            StringBuilder counts = new StringBuilder();
            for (String line : scrape().split("\n")) {
                if (line.startsWith("trainyard_jobs{state=\"") && !line.endsWith(" 0.0")) {
                    int at = line.indexOf('"') + 1;
                    counts.append(counts.isEmpty() ? "" : ", ").append(line, at, line.indexOf('"', at))
                            .append(' ').append((long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
                }
            }
            return counts.toString();
        } catch (Exception e) {
            return "unknown (" + e + ")";
        }
    }

    /** Sum of {@code jvm_memory_used_bytes{area="heap",...}} over the heap's pools. */
    static long heapUsed(String metrics) {
        long sum = 0;
        for (String line : metrics.split("\n")) {
            if (line.startsWith("jvm_memory_used_bytes{") && line.contains("area=\"heap\"")) {
                sum += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }

    static double metric(String metrics, String name) {
        for (String line : metrics.split("\n")) {
            if (line.startsWith(name + " ") || line.startsWith(name + "{")) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return Double.NaN;
    }

    /** The share of the machine's CPU time that was busy between start() and busyFraction(). */
    static final class CpuMeter {
        long[] first;

        static CpuMeter start() throws Exception {
            CpuMeter meter = new CpuMeter();
            meter.first = read();
            return meter;
        }

        static long[] read() throws Exception {
            String[] fields = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long total = 0;
            for (int i = 1; i < fields.length; i++) {
                total += Long.parseLong(fields[i]);
            }
            long idle = Long.parseLong(fields[4]) + Long.parseLong(fields[5]); // idle + iowait
            return new long[] {total, idle};
        }

        double busyFraction() throws Exception {
            long[] now = read();
            long total = now[0] - first[0];
            return total == 0 ? Double.NaN : 1 - (now[1] - first[1]) / (double) total;
        }
    }

    // ------------------------------------------------------------------------------------------------
    // HTTP, JSON, statistics
    // ------------------------------------------------------------------------------------------------

    static HttpResponse<String> send(String method, String path, Object body, String token) throws Exception {
        return send(method, path, body, token, null).response();
    }

    record Sent(HttpResponse<String> response, int attempts) {
    }

    /**
     * Sends, and resends up to 4 times on an I/O error, as an agent resends a report until it is acknowledged.
     * The usual one is "header parser received no bytes": the server closed a pooled keep-alive connection
     * (idle past Tomcat's keep-alive timeout) just as the client reused it, so the request was never read.
     */
    static Sent send(String method, String path, Object body, String token, String idempotencyKey) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(120));
        if (!token.isEmpty()) {
            request.header("Authorization", "Bearer " + token);
        }
        if (idempotencyKey != null) {
            request.header("Idempotency-Key", idempotencyKey);
        }
        if (body != null) {
            request.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        for (int attempt = 1; ; attempt++) {
            try {
                return new Sent(HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString()), attempt);
            } catch (java.io.IOException e) {
                if (attempt == 5) {
                    throw e;
                }
                transportRetries.merge(path.replaceAll("/[0-9a-f-]{36}/\\d+/", "/{job}/{attempt}/").replaceAll("^/agents/[^/]+", "/agents/{id}")
                        .replaceAll("\\?.*", "") + " (" + e.getMessage() + ")", 1, Integer::sum);
                Thread.sleep(100L * attempt);
            }
        }
    }

    static void error(String kind, String detail) {
        errors.merge(kind, 1, Integer::sum);
        if (errorSamples.size() < 5) {
            errorSamples.add(kind + ": " + (detail.length() > 300 ? detail.substring(0, 300) + "..." : detail));
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static List<Double> toDoubles(List<Long> values) {
        return values.stream().map(Long::doubleValue).toList();
    }

    static double mean(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }

    static double percentileD(List<Double> values, int p) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(index, sorted.size() - 1)));
    }

    static double percentile(List<Long> values, int p) {
        return percentileD(toDoubles(values), p);
    }
}

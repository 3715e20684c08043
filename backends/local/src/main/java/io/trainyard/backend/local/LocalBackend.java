package io.trainyard.backend.local;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.trainyard.TrainyardProperties;
import io.trainyard.agent.Gpu;
import io.trainyard.dispatch.Backend;
import io.trainyard.dispatch.LaunchPlan;
import io.trainyard.dispatch.Reservation;
import io.trainyard.gigl.InvalidConfigException;
import io.trainyard.gigl.TaskConfig;
import io.trainyard.gigl.TrainerResource;
import io.trainyard.gigl.Violation;
import io.trainyard.job.FailureCause;
import io.trainyard.job.Job;
import io.trainyard.job.JobSpec;
import io.trainyard.job.JobState;
import io.trainyard.job.JobTransitions;
import io.trainyard.job.RetriedStateChange;
import io.trainyard.job.RunOutcome;
import io.trainyard.logs.LogSink;
import io.trainyard.logs.LogStore;
import io.trainyard.logs.LogStream;
import io.trainyard.logs.LogWriter;
import io.trainyard.placement.AgentCapacity;
import io.trainyard.placement.Demand;
import io.trainyard.placement.Placement;
import io.trainyard.placement.PlacementDecision;
import io.trainyard.placement.Placer;
import io.trainyard.placement.PoolCapacity;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Runs {@code localTrainerConfig} jobs on this host: takes GPUs or CPU slots, writes the frozen configs
 * to the job's work folder, clears old outputs, starts one supervised trainer process per worker, tails
 * their output into the log store and reports the outcome. Runs survive a server restart: the processes
 * keep going and {@link #recover} re-attaches to them.
 */
@Component
@EnableConfigurationProperties(LocalBackendProperties.class)
public class LocalBackend implements Backend, SmartLifecycle {

    public static final String NAME = "local";
    private static final Logger log = LoggerFactory.getLogger(LocalBackend.class);

    private final TrainyardProperties trainyard;
    private final LocalBackendProperties properties;
    private final JobTransitions transitions;
    private final LogWriter logWriter;
    private final LogStore logStore;
    private final List<Gpu> gpus;
    private final PoolCapacity pool;
    private final Supervisor supervisor;
    private final Timer dispatchLatency;
    private final Map<UUID, LocalRun> runs = new ConcurrentHashMap<>();
    private final Map<UUID, Thread> watchers = new ConcurrentHashMap<>();
    private volatile boolean running;

    public LocalBackend(TrainyardProperties trainyard, LocalBackendProperties properties,
            JobTransitions transitions, LogWriter logWriter, LogStore logStore, PoolCapacity pool, MeterRegistry registry)
            throws IOException {
        this.trainyard = trainyard;
        this.properties = properties;
        this.transitions = transitions;
        this.logWriter = logWriter;
        this.logStore = logStore;
        this.gpus = GpuDiscovery.discover(properties.nvidiaSmi());
        this.pool = pool;
        this.supervisor = Supervisor.install(trainyard.dataDir(), properties.python());
        this.dispatchLatency = Timer.builder("trainyard.jobs.dispatch.latency")
                .description("From a job's claim to its trainer processes running")
                .publishPercentiles(0.5, 0.99).register(registry);
        log.info("Local pool of node {}: {} GPU(s), {} CPU slot(s)", trainyard.nodeId(), gpus.size(), properties.cpuSlots());
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean runs(TrainerResource resource) {
        return resource instanceof TrainerResource.Local;
    }

    public List<Gpu> gpus() {
        return gpus;
    }

    @Override
    public LaunchPlan plan(UUID jobId, JobSpec spec) {
        List<Violation> violations = new ArrayList<>();
        WorkFolder folder = WorkFolder.of(trainyard.dataDir(), jobId);
        spec.task().trainedModelMetadata().byField().forEach((field, uri) -> {
            if (uri != null && uri.startsWith("gs://")) {
                violations.add(new Violation("taskConfig.sharedConfig.trainedModelMetadata." + field,
                        "'" + uri + "' is on GCS; the local backend writes outputs to local paths or file:// URIs"));
            }
        });
        Placement shape = ownCapacity().shapeFor(new Demand(spec.slots(), spec.requireGpus()));
        List<LaunchPlan.Worker> workers = List.of();
        try {
            workers = TrainerInvocation.workers(jobId, 1, spec.jobName(), spec.task(), spec.images(), folder,
                    shape == null ? Placement.onCpu(trainyard.nodeId(), 0) : shape, spec.slots(), null, properties);
        } catch (IllegalArgumentException e) {
            violations.add(new Violation("taskConfig.trainerConfig.command", e.getMessage()));
        }
        if (!violations.isEmpty()) {
            throw new InvalidConfigException(violations);
        }
        Map<String, Object> placement = new LinkedHashMap<>();
        placement.put("node", trainyard.nodeId());
        placement.put("workers", spec.slots());
        if (shape == null) {
            placement.put("noCapacity", "the job requires " + spec.slots() + " GPU(s) and host " + trainyard.nodeId()
                    + " has " + gpus.size());
        } else {
            placement.put("device", shape.device());
            placement.put("gpus", shape.gpus());
            placement.put("cpuSlots", shape.cpuSlots());
        }
        return new LaunchPlan(NAME, placement, folder.root().toString(), workers);
    }

    @Override
    public Map<String, String> outputUris(UUID jobId, TaskConfig task) {
        WorkFolder folder = WorkFolder.of(trainyard.dataDir(), jobId);
        Map<String, String> uris = new LinkedHashMap<>();
        task.trainedModelMetadata().byField().forEach((field, uri) ->
                uris.put(field, uri.startsWith("gs://") ? uri : TrainerOutputs.resolve(uri, folder).toUri().toString()));
        return uris;
    }

    @Override
    public Reservation reserve(Job job) {
        List<AgentCapacity> agents = pool.activeAgents();
        agents.sort(Placer.preferring(trainyard.nodeId()));
        return switch (Placer.place(new Demand(job.getSlots(), job.isRequireGpus()), agents)) {
            // Another agent fits it better: the server running that agent places it there.
            case PlacementDecision.OnAgent on -> on.placement().node().equals(trainyard.nodeId())
                    ? new Reservation.Placed(on.placement().toJson()) : new Reservation.Wait();
            case PlacementDecision.Wait wait -> new Reservation.Wait();
            case PlacementDecision.Never never -> new Reservation.Never(never.reason());
        };
    }

    /** This host's inventory, all of it free: what a job could ever get here. */
    private AgentCapacity ownCapacity() {
        return new AgentCapacity(trainyard.nodeId(), gpus.stream().map(Gpu::index).toList(), properties.cpuSlots());
    }

    @Override
    public void launch(Job job, JobSpec spec) {
        Thread.ofVirtual().name("launch-" + job.getId()).start(() -> start(job, spec));
    }

    @Override
    public void requestCancel(UUID jobId) {
        LocalRun run = runs.get(jobId);
        if (run != null) {
            run.requestCancel();
        }
    }

    /** Kills every run of this host without reporting: their jobs were settled elsewhere (lost lease). */
    void killAllRuns() {
        runs.values().forEach(LocalRun::kill);
    }

    private void start(Job job, JobSpec spec) {
        Instant claimedAt = Instant.now();
        UUID id = job.getId();
        int attempt = job.getAttempt();
        WorkFolder folder = WorkFolder.of(trainyard.dataDir(), id);
        Placement placement = Placement.fromJson(job.getPlacement());
        List<WorkerProcess> started = new ArrayList<>();
        LogSink sink = null;
        try {
            Files.createDirectories(folder.attempt(attempt));
            Files.writeString(folder.taskConfig(), spec.taskConfigYaml(), StandardCharsets.UTF_8);
            Files.writeString(folder.resourceConfig(), spec.resourceConfigYaml(), StandardCharsets.UTF_8);
            TrainerOutputs.clear(TrainerOutputs.toClear(spec.task(), folder));
            List<LaunchPlan.Worker> workers = TrainerInvocation.workers(id, attempt, spec.jobName(), spec.task(), spec.images(),
                    folder, placement, spec.slots(), freePort(), properties);
            sink = logWriter.open(id, attempt);
            for (LaunchPlan.Worker worker : workers) {
                started.add(WorkerProcess.spawn(supervisor, worker, folder, attempt));
            }
        } catch (IOException | RuntimeException e) {
            log.warn("Launching job {} failed", id, e);
            started.forEach(worker -> worker.signalGroup("KILL"));
            if (sink != null) {
                logWriter.abandon(sink);
            }
            settle(id, attempt, RunOutcome.failed(FailureCause.LAUNCH_ERROR, null, "could not start the trainer: " + e.getMessage()));
            return;
        }
        RunState state = new RunState(started.stream().map(WorkerProcess::state).toList());
        Optional<JobState> now = persist(id, () -> transitions.markRunning(id, attempt, state.toJson()));
        dispatchLatency.record(Duration.between(claimedAt, Instant.now()));
        LocalRun run = attach(job, folder, started, sink, Map.of(), Instant.now());
        if (now == null || now.isEmpty() || now.get() == JobState.CANCELLING) {
            run.requestCancel();
        }
    }

    @Override
    public void recover(List<Job> activeJobsOfThisNode) {
        for (Job job : activeJobsOfThisNode) {
            UUID id = job.getId();
            int attempt = job.getAttempt();
            WorkFolder folder = WorkFolder.of(trainyard.dataDir(), id);
            if (job.getRunState() == null) {
                // The server stopped between claiming the job and recording its processes.
                killStrays(folder, attempt, job.getSlots());
                transitions.finish(id, attempt, RunOutcome.failed(FailureCause.CONTROL_PLANE, null,
                        "the server stopped while the job was starting"));
                continue;
            }
            RunState state = RunState.fromJson(job.getRunState());
            List<WorkerProcess> workers = state.workers().stream()
                    .map(worker -> WorkerProcess.find(worker, folder, attempt).orElse(WorkerProcess.ended(worker, folder, attempt)))
                    .toList();
            long alive = workers.stream().filter(WorkerProcess::isAlive).count();
            boolean allRecorded = workers.stream().allMatch(worker -> worker.isAlive() || worker.exit().recorded());
            if (alive == 0 && !allRecorded) {
                transitions.finish(id, attempt, RunOutcome.failed(FailureCause.CONTROL_PLANE, null,
                        "the trainer processes were gone without a trace when the server restarted"));
                continue;
            }
            log.info("Re-attaching to job {} attempt {} ({} of {} worker(s) still running)", id, attempt, alive, workers.size());
            LocalRun run = attach(job, folder, workers, logWriter.open(id, attempt), logStore.readPositions(id, attempt),
                    job.getStartedAt() == null ? Instant.now() : job.getStartedAt());
            if (job.getState() == JobState.CANCELLING) {
                run.requestCancel();
            }
        }
    }

    private LocalRun attach(Job job, WorkFolder folder, List<WorkerProcess> workers, LogSink sink,
            Map<String, Long> readPositions, Instant startedAt) {
        int attempt = job.getAttempt();
        List<FileTailer> tailers = new ArrayList<>();
        for (WorkerProcess worker : workers) {
            Path stdout = folder.stdout(attempt, worker.rank());
            Path stderr = folder.stderr(attempt, worker.rank());
            tailers.add(new FileTailer(stdout, LogStream.STDOUT, worker.rank(),
                    readPositions.getOrDefault(stdout.getFileName().toString(), 0L), sink));
            tailers.add(new FileTailer(stderr, LogStream.STDERR, worker.rank(),
                    readPositions.getOrDefault(stderr.getFileName().toString(), 0L), sink));
        }
        tailers.forEach(FileTailer::start);
        LocalRun run = new LocalRun(job.getId(), attempt, workers, tailers, sink, startedAt,
                Duration.ofSeconds(job.getTimeoutSeconds()), properties.cancelGracePeriod());
        runs.put(job.getId(), run);
        Thread watcher = Thread.ofVirtual().name("run-" + job.getId()).start(() -> watch(run));
        watchers.put(job.getId(), watcher);
        return run;
    }

    private void watch(LocalRun run) {
        try {
            run.watch(outcome -> {
                try {
                    logWriter.close(run.sink());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                settle(run.jobId(), run.attempt(), outcome);
            });
        } catch (InterruptedException e) {
            // Shutting down: leave the processes running for the next start to re-attach.
            run.tailers().forEach(FileTailer::abandon);
        } finally {
            runs.remove(run.jobId());
            watchers.remove(run.jobId());
        }
    }

    /** Records the outcome; the job's resources are free once it commits. */
    private void settle(UUID id, int attempt, RunOutcome outcome) {
        persist(id, () -> transitions.finish(id, attempt, outcome));
    }

    /**
     * Runs a state change until the database takes it (the processes are real); null if the server shuts
     * down first, and a restarted server settles the run.
     */
    private static <T> T persist(UUID id, Supplier<T> change) {
        try {
            return RetriedStateChange.untilStored(id, change);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** Kills processes of an attempt whose start was never recorded, found by their supervisors' pid files. */
    private static void killStrays(WorkFolder folder, int attempt, int workers) {
        for (int rank = 0; rank < workers; rank++) {
            Path pidFile = folder.pidFile(attempt, rank);
            try {
                long pid = Long.parseLong(Files.readString(pidFile).strip());
                if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                    log.warn("Killing stray trainer process group {} of {}", pid, folder.root());
                    WorkerProcess.signalGroup(pid, "KILL");
                }
            } catch (IOException | NumberFormatException e) {
                // never started, nothing to kill
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void start() {
        running = true;
    }

    /** On shutdown the trainers keep running; their watchers stop and a restarted server re-attaches. */
    @Override
    public void stop() {
        running = false;
        watchers.values().forEach(Thread::interrupt);
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}

package io.trainyard.agent.run;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

import io.trainyard.agent.connection.Redelivery;
import io.trainyard.agent.connection.ServerConnection;
import io.trainyard.agent.connection.StaleRunException;
import io.trainyard.agent.logs.FileTailer;
import io.trainyard.agent.logs.LogShipper;
import io.trainyard.agent.metrics.MetricShipper;
import io.trainyard.agent.system.SystemMetricShipper;
import io.trainyard.agent.trainer.TrainerOutputs;
import io.trainyard.agent.trainer.WorkFolder;
import io.trainyard.launch.LaunchSpec;
import io.trainyard.launch.WorkerLaunch;
import io.trainyard.protocol.Assignment;
import io.trainyard.protocol.Ended;
import io.trainyard.protocol.KnownRun;
import io.trainyard.protocol.LogStream;
import io.trainyard.protocol.RunEnd;
import io.trainyard.protocol.Started;
import io.trainyard.protocol.StartedAck;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One attempt of a job on this agent, from start (or re-attachment) to its reported end, on its own
 * thread: starts the supervised workers and reports them started, ships their output, TensorBoard
 * scalars and system metrics, watches them (cancel, timeout, a failed peer), and reports the outcome once every line is acknowledged. If the server
 * refuses a report as stale, the attempt was settled without this agent (its lease was lost): the workers
 * are killed and nothing more is reported.
 */
public final class AgentRun {

    private static final Logger log = LoggerFactory.getLogger(AgentRun.class);
    /** The trainedModelMetadata field naming the run's TensorBoard folder. */
    private static final String TENSORBOARD_LOGS = "tensorboardLogsUri";

    private final UUID jobId;
    private final int attempt;
    private final long epoch;
    private final RunSettings settings;
    private final Supervisor supervisor;
    private final ServerConnection server;
    private final Consumer<AgentRun> onDone;
    private volatile boolean cancelRequested;
    private volatile LocalRun run;
    private volatile boolean stale;
    private Thread thread;

    /** @param onDone called when the run is over here: reported, stale, or left for a successor to re-attach */
    public AgentRun(UUID jobId, int attempt, long epoch, RunSettings settings, Supervisor supervisor, ServerConnection server,
            Consumer<AgentRun> onDone) {
        this.jobId = jobId;
        this.attempt = attempt;
        this.epoch = epoch;
        this.settings = settings;
        this.supervisor = supervisor;
        this.server = server;
        this.onDone = onDone;
    }

    public UUID jobId() {
        return jobId;
    }

    public int attempt() {
        return attempt;
    }

    public boolean isCancelling() {
        return cancelRequested;
    }

    public void requestCancel() {
        cancelRequested = true;
        LocalRun current = run;
        if (current != null) {
            current.requestCancel();
        }
    }

    /** Kills the workers without reporting anything: the server settled this attempt already. */
    public void killAsStale() {
        killWorkers();
        thread.interrupt();
    }

    private void killWorkers() {
        stale = true;
        LocalRun current = run;
        if (current != null) {
            current.kill();
        }
    }

    /** Stops following the run but leaves its processes running, for a restarted agent to re-attach. */
    public void leave() {
        thread.interrupt();
    }

    public void launch(Assignment assignment) {
        thread = runThread().start(() -> lifecycle(() -> start(assignment)));
    }

    public void reattach(KnownRun known) {
        thread = runThread().start(() -> lifecycle(() -> resume(known)));
    }

    /**
     * The OS's thread, not a virtual one. The server's own agent shares the server's JVM, whose requests run on
     * virtual threads over as many carriers as there are cores: a virtual run thread queued behind them at every
     * step of its start (the work folder's writes, the spawn, the start's transaction), and beside full-speed
     * submissions took up to ~100 ms from assignment to RUNNING. The OS runs a thread that just woke ahead of busy
     * ones. A host runs a handful of attempts at once, so a platform thread each costs nothing that counts. A daemon,
     * as a virtual thread is: a run left for the next agent process to re-attach must not keep this one alive.
     */
    private Thread.Builder runThread() {
        return Thread.ofPlatform().daemon().name("run-" + jobId);
    }

    private interface Phase {
        RunEnd run() throws InterruptedException;
    }

    private void lifecycle(Phase phase) {
        try {
            RunEnd outcome = phase.run();
            if (outcome != null && !stale) {
                Redelivery.untilDelivered("the end of job " + jobId, () -> {
                    server.ended(jobId, attempt, new Ended(epoch, outcome));
                    return null;
                });
            }
        } catch (StaleRunException e) {
            log.warn("Job {} attempt {} was settled without this agent ({}); killing its processes", jobId, attempt,
                    e.getMessage());
            killWorkers();
        } catch (InterruptedException e) {
            // The agent is stopping (or the run turned stale): processes are left as they are.
        } finally {
            onDone.accept(this);
        }
    }

    /** Starts the workers; returns the outcome once they ended, or a launch error. */
    private RunEnd start(Assignment assignment) throws InterruptedException {
        WorkFolder folder = WorkFolder.of(settings.dataDir(), jobId);
        List<WorkerProcess> started = new ArrayList<>();
        Map<String, String> outputs;
        String rendezvous;
        Instant spawnedAt;
        try {
            // A folder of this attempt is left from a start that was never reported (its processes were
            // killed as strays at registration): start afresh.
            TrainerOutputs.clear(List.of(folder.attempt(attempt)));
            Files.createDirectories(folder.attempt(attempt));
            Files.writeString(folder.taskConfig(), assignment.taskConfig(), StandardCharsets.UTF_8);
            Files.writeString(folder.resourceConfig(), assignment.resourceConfig(), StandardCharsets.UTF_8);
            LaunchSpec spec = new LaunchSpec(assignment.jobName(), folder.files(), assignment.program(),
                    !assignment.gpus().isEmpty());
            TrainerOutputs.clear(settings.sandbox().deletable(folder, TrainerOutputs.resolveAll(spec.outputsToClear(), folder)));
            settings.sandbox().prepare(folder);
            outputs = TrainerOutputs.uris(assignment.program().outputs(), folder);
            rendezvous = assignment.rendezvous() != null ? assignment.rendezvous()
                    : settings.invocation().masterAddr() + ":" + freePort();
            List<WorkerLaunch> workers = settings.invocation().workers(jobId, attempt, spec, assignment.gpus(),
                    assignment.ranks(), rendezvous);
            List<String> sandbox = settings.sandbox().command(folder, attempt);
            for (WorkerLaunch worker : workers) {
                started.add(WorkerProcess.spawn(supervisor, sandbox, worker, folder, attempt));
            }
            spawnedAt = Instant.now();
        } catch (IOException | RuntimeException e) {
            log.warn("Launching job {} failed", jobId, e);
            started.forEach(worker -> worker.signalGroup("KILL"));
            release(folder);
            return RunEnd.of(RunEnd.Result.LAUNCH_FAILED, null, "could not start the trainer: " + e.getMessage());
        }
        String runState = new RunState(started.stream().map(WorkerProcess::state).toList()).toJson();
        StartedAck ack;
        try {
            ack = Redelivery.untilDelivered("the start of job " + jobId,
                    () -> server.started(jobId, attempt, new Started(epoch, runState, outputs, rendezvous, spawnedAt)));
        } catch (StaleRunException e) {
            started.forEach(worker -> worker.signalGroup("KILL"));
            throw e;
        }
        if (ack.cancelling()) {
            cancelRequested = true;
        }
        // Rank 0 writes the job's TensorBoard scalars: its host ships them.
        MetricShipper metrics = assignment.ranks().firstRank() == 0 ? metricShipper(outputs.get(TENSORBOARD_LOGS), Map.of(), 0) : null;
        return follow(folder, started, Map.of(), 0, metrics, spawnedAt, Duration.ofSeconds(assignment.timeoutSeconds()),
                assignment.gpus());
    }

    /** Re-attaches to workers started by an earlier agent process, or reports them lost. */
    private RunEnd resume(KnownRun known) throws InterruptedException {
        WorkFolder folder = WorkFolder.of(settings.dataDir(), jobId);
        List<WorkerProcess> workers = RunState.fromJson(known.runState()).workers().stream()
                .map(worker -> WorkerProcess.find(worker, folder, attempt).orElse(WorkerProcess.ended(worker, folder, attempt)))
                .toList();
        long alive = workers.stream().filter(WorkerProcess::isAlive).count();
        boolean allRecorded = workers.stream().allMatch(worker -> worker.isAlive() || worker.exit().recorded());
        if (alive == 0 && !allRecorded) {
            return RunEnd.of(RunEnd.Result.LOST, null, "the trainer processes were gone without a "
                    + "trace when agent " + settings.agentId() + " restarted (was the host rebooted?)");
        }
        log.info("Re-attaching to job {} attempt {} ({} of {} worker(s) still running)", jobId, attempt, alive, workers.size());
        if (known.cancelling()) {
            cancelRequested = true;
        }
        Instant startedAt = known.startedAt() == null ? Instant.now() : known.startedAt();
        MetricShipper metrics = metricShipper(known.tensorboardLogsUri(), known.metricPositions(), known.lastMetricBatch());
        return follow(folder, workers, known.readPositions(), known.lastBatch(), metrics, startedAt,
                Duration.ofSeconds(known.timeoutSeconds()), known.gpus() == null ? List.of() : known.gpus());
    }

    /** Follows the run's TensorBoard folder when it is on this host (a gs:// one is read by the server). */
    private MetricShipper metricShipper(String tensorboardLogsUri, Map<String, Long> positions, long lastBatch) {
        if (tensorboardLogsUri == null || !tensorboardLogsUri.startsWith("file:")) {
            return null;
        }
        return new MetricShipper(MetricShipper.toServer(server, jobId, attempt), jobId, epoch, Path.of(URI.create(tensorboardLogsUri)),
                positions, lastBatch);
    }

    private RunEnd follow(WorkFolder folder, List<WorkerProcess> workers, Map<String, Long> readPositions,
            long lastBatch, MetricShipper metrics, Instant startedAt, Duration timeout, List<Integer> gpus) throws InterruptedException {
        LogShipper shipper = new LogShipper(server, jobId, attempt, epoch, lastBatch);
        SystemMetricShipper usage = new SystemMetricShipper(server, jobId, attempt, epoch, startedAt, Set.copyOf(gpus),
                workers.stream().flatMap(WorkerProcess::sampled).toList(), settings.monitor());
        List<FileTailer> tailers = new ArrayList<>();
        for (WorkerProcess worker : workers) {
            tailers.add(tailer(folder.stdout(attempt, worker.rank()), LogStream.STDOUT, worker.rank(), readPositions, shipper));
            tailers.add(tailer(folder.stderr(attempt, worker.rank()), LogStream.STDERR, worker.rank(), readPositions, shipper));
        }
        LocalRun watched = new LocalRun(workers, tailers, startedAt, timeout, settings.cancelGracePeriod(),
                settings.launchErrorHint());
        run = watched;
        if (cancelRequested) {
            watched.requestCancel();
        }
        shipper.start(this::killAsStale);
        tailers.forEach(FileTailer::start);
        if (metrics != null) {
            metrics.start(this::killAsStale);
        }
        usage.start(this::killAsStale);
        try {
            RunEnd outcome = watched.watch();
            release(folder);
            usage.finish();
            shipper.finish();
            if (metrics != null) {
                metrics.finish();
            }
            return outcome;
        } catch (InterruptedException e) {
            tailers.forEach(FileTailer::abandon);
            shipper.abandon();
            usage.abandon();
            if (metrics != null) {
                metrics.abandon();
            }
            throw e;
        }
    }

    /** Frees the attempt's sandbox (its shared memory) once every worker has ended. */
    private void release(WorkFolder folder) {
        try {
            settings.sandbox().release(folder);
        } catch (IOException e) {
            log.warn("Could not free the sandbox of job {} attempt {}: {}", jobId, attempt, e.toString());
        }
    }

    private FileTailer tailer(Path file, LogStream stream, int rank, Map<String, Long> readPositions, LogShipper shipper) {
        return new FileTailer(file, stream, rank, readPositions.getOrDefault(file.getFileName().toString(), 0L),
                shipper.sink(), settings.maxLogBacklogBytes());
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}

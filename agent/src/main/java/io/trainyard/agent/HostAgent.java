package io.trainyard.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import io.trainyard.agent.connection.Backoff;
import io.trainyard.agent.connection.Redelivery;
import io.trainyard.agent.connection.ServerConnection;
import io.trainyard.agent.connection.StaleRunException;
import io.trainyard.agent.run.AgentRun;
import io.trainyard.agent.run.RunSettings;
import io.trainyard.agent.run.Supervisor;
import io.trainyard.agent.run.WorkerProcess;
import io.trainyard.agent.system.HostMonitor;
import io.trainyard.protocol.Assignment;
import io.trainyard.protocol.Ended;
import io.trainyard.protocol.Heartbeat;
import io.trainyard.protocol.KnownRun;
import io.trainyard.protocol.Registered;
import io.trainyard.protocol.Registration;
import io.trainyard.protocol.RunEnd;
import io.trainyard.protocol.Work;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent of one host: registers its inventory with the server, heartbeats on a lease (each heartbeat
 * also waits for work: runs to start or cancel), and runs its jobs' trainers. It survives the server: runs
 * go on while the server is away and their reports are retried until it is back. A restarted agent
 * re-attaches to the runs the server still has for it; any other trainer process left in its data
 * directory is stale and killed. If the server says this agent's epoch is stale (its lease ran out and its
 * jobs were failed), it kills every run and registers anew.
 *
 * <p>Self-fencing: an agent that has heard nothing at all from any server's host (no answer of any status,
 * no refused connection) for its lease less one heartbeat interval, counted from the last heartbeat the server
 * took, kills its runs itself. The server cannot declare it lost sooner than a lease after that heartbeat, so
 * when it starts the job elsewhere the old trainer is already gone, even if this host is cut off and never
 * hears the 409. A server that answers, even 503 (its database is away), or a host that refuses the connection
 * (the server is restarting) keeps the runs going: neither declares anyone lost until it has had the database
 * for a full lease. The same deadline is written for the supervisors ({@link io.trainyard.agent.run.FenceDeadline}),
 * so the trainers die on time even when this agent is dead and cannot kill them.
 */
public final class HostAgent {

    private static final Logger log = LoggerFactory.getLogger(HostAgent.class);
    private static final long FIRST_RETRY_MILLIS = 250;
    private static final long MAX_RETRY_MILLIS = 2_000;
    private static final long FENCE_CHECK_MILLIS = 200;

    private final AgentSettings settings;
    private final RunSettings runSettings;
    private final ServerConnection server;
    private final Supervisor supervisor;
    private final Map<UUID, AgentRun> runs = new ConcurrentHashMap<>();
    private volatile long epoch;
    /** The number of the last GPU reading a heartbeat carried since registering (0: none). */
    private long gpuReadingCarried;
    private volatile Duration heartbeatInterval = Duration.ofSeconds(2);
    private volatile Duration lease;
    private volatile long lastRenewalSentNanos = System.nanoTime();
    private Thread thread;
    private Thread fence;

    /** @param server how it reaches the server: over HTTP ({@link io.trainyard.agent.connection.HttpServerConnection}) */
    public HostAgent(AgentSettings settings, ServerConnection server) throws IOException {
        this.settings = settings;
        this.supervisor = Supervisor.install(settings.dataDir(), settings.python());
        this.runSettings = settings.runSettings();
        this.server = server;
    }

    public void start() {
        log.info("Agent {} on {}: {} GPU(s), {} CPU slot(s), reporting to {}; {}", settings.agentId(), settings.host(),
                settings.gpus().size(), settings.cpuSlots(), server, runSettings.sandbox().describe());
        runSettings.monitor().start();
        thread = Thread.ofPlatform().name("agent-" + settings.agentId()).start(this::loop);
        fence = Thread.ofPlatform().daemon().name("agent-fence-" + settings.agentId()).start(this::fenceLoop);
    }

    /**
     * The fence deadline this agent writes is owned by this process: the server's own agent, when that server runs
     * on its embedded database (see {@link io.trainyard.agent.run.FenceDeadline}). Before {@link #start()}.
     */
    public void fenceOwnedByThisProcess() {
        supervisor.fence().ownByThisProcess();
    }

    /** Whether this agent holds an epoch: the server took its registration, and has not told it since that it is stale. */
    public boolean isRegistered() {
        return epoch != 0;
    }

    /** Stops heartbeating and following runs; the trainers keep running for the next start to re-attach. */
    public void stop() throws InterruptedException {
        fence.interrupt();
        runSettings.monitor().stop();
        thread.interrupt();
        thread.join();
        runs.values().forEach(AgentRun::leave);
    }

    private void loop() {
        Backoff backoff = new Backoff(FIRST_RETRY_MILLIS, MAX_RETRY_MILLIS);
        int failures = 0;
        try {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    if (epoch == 0) {
                        register();
                    }
                    long sent = System.nanoTime();
                    HostMonitor.GpuReading gpus = runSettings.monitor().lastReading();
                    handle(server.heartbeat(heartbeat(gpus), heartbeatInterval));
                    lastRenewalSentNanos = sent;
                    gpuReadingCarried = gpus.number();
                    if (failures > 0) {
                        log.warn("Agent {} reaches the server again after {} failed tries", settings.agentId(), failures);
                        failures = 0;
                        backoff.reset();
                    }
                } catch (StaleRunException e) {
                    log.warn("Agent {} epoch {} is stale ({}); killing its runs and registering again. If this "
                            + "repeats, another agent runs with --agent-id={}", settings.agentId(), epoch, e.getMessage(),
                            settings.agentId());
                    runs.values().forEach(AgentRun::killAsStale);
                    epoch = 0;
                } catch (IOException e) {
                    // Once per incident: the runs go on and their reports wait; retried with backoff and jitter.
                    if (failures++ == 0) {
                        log.warn("Agent {} cannot reach the server; its runs go on, retrying: {}", settings.agentId(), e.toString());
                    }
                    backoff.pause();
                }
            }
        } catch (InterruptedException e) {
            // stopping
        }
    }

    private void register() throws IOException, InterruptedException {
        long sent = System.nanoTime();
        Registered registered = server.register(new Registration(settings.host(), settings.gpus(), settings.cpuSlots()));
        lastRenewalSentNanos = sent;
        heartbeatInterval = Duration.ofMillis(registered.heartbeatIntervalMillis());
        lease = registered.leaseMillis() == null ? null : Duration.ofMillis(registered.leaseMillis());
        epoch = registered.epoch();
        gpuReadingCarried = 0;
        if (lease == null) {
            supervisor.fence().remove();
        } else {
            supervisor.fence().moveTo(fenceDeadlineNanos(lease));
        }
        log.info("Agent {} registered: epoch {}, {} run(s) to re-attach", settings.agentId(), epoch, registered.runs().size());
        killStrays(registered.runs());
        for (KnownRun known : registered.runs()) {
            AgentRun run = newRun(known.jobId(), known.attempt());
            runs.put(known.jobId(), run);
            run.reattach(known);
        }
    }

    /**
     * Looks five times a second whether this agent must fence itself off (see the class comment), and moves the
     * supervisors' fence deadline out while it need not.
     */
    private void fenceLoop() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Thread.sleep(FENCE_CHECK_MILLIS);
                Duration currentLease = lease;
                if (currentLease == null || epoch == 0) {
                    continue;
                }
                long deadline = fenceDeadlineNanos(currentLease);
                supervisor.fence().moveTo(deadline);
                long now = System.nanoTime();
                if (!runs.isEmpty() && now >= deadline) {
                    log.warn("Agent {} has heard from no server's host for {} s (its lease is {} s): killing its {} run(s) "
                            + "itself, before the server may declare it lost and start them elsewhere", settings.agentId(),
                            (now - server.lastAnswerNanos()) / 1_000_000_000, currentLease.toSeconds(), runs.size());
                    epoch = 0;
                    runs.values().forEach(AgentRun::killAsStale);
                }
            }
        } catch (InterruptedException e) {
            // stopping
        }
    }

    /**
     * The moment this agent fences itself, on {@link System#nanoTime()}'s clock: its lease less one heartbeat
     * interval after it last heard from a server's host or had a renewal taken, whichever is later.
     */
    private long fenceDeadlineNanos(Duration currentLease) {
        return Math.max(lastRenewalSentNanos, server.lastAnswerNanos()) + currentLease.minus(heartbeatInterval).toNanos();
    }

    /** @param gpus the GPUs' last reading: carried if no heartbeat has yet (the server keeps the last one it got) */
    private Heartbeat heartbeat(HostMonitor.GpuReading gpus) {
        List<UUID> running = List.copyOf(runs.keySet());
        List<UUID> cancelling = runs.values().stream().filter(AgentRun::isCancelling).map(AgentRun::jobId).toList();
        boolean fresh = runSettings.monitor().samplesGpus() && gpus.number() > gpuReadingCarried;
        return new Heartbeat(epoch, running, cancelling, fresh ? gpus.gpus() : null);
    }

    private void handle(Work work) {
        for (Assignment assignment : work.assignments()) {
            AgentRun run = newRun(assignment.jobId(), assignment.attempt());
            if (runs.putIfAbsent(assignment.jobId(), run) == null) {
                run.launch(assignment);
            }
        }
        for (Work.Cancel cancel : work.cancels()) {
            AgentRun run = runs.get(cancel.jobId());
            if (run != null && run.attempt() == cancel.attempt()) {
                run.requestCancel();
            } else {
                reportCancelledBeforeStart(cancel);
            }
        }
        for (UUID settled : work.settled()) {
            AgentRun run = runs.get(settled);
            if (run != null) {
                log.warn("Job {} attempt {} was settled without this agent (another of its hosts ended it); killing its "
                        + "processes here", settled, run.attempt());
                run.killAsStale();
                // At once, not when its thread is done: the next heartbeat must not list it again.
                runs.remove(settled, run);
            }
        }
    }

    /** A job cancelled before this agent started it has nothing to stop. */
    private void reportCancelledBeforeStart(Work.Cancel cancel) {
        long currentEpoch = epoch;
        Thread.ofVirtual().start(() -> {
            try {
                Redelivery.untilDelivered("the cancel of job " + cancel.jobId(), () -> {
                    server.ended(cancel.jobId(), cancel.attempt(), new Ended(currentEpoch, RunEnd.cancelled(null)));
                    return null;
                });
            } catch (StaleRunException | InterruptedException e) {
                // settled otherwise, or stopping
            }
        });
    }

    private AgentRun newRun(UUID jobId, int attempt) {
        return new AgentRun(jobId, attempt, epoch, runSettings, supervisor, server, done -> runs.remove(jobId, done));
    }

    /**
     * Kills the trainer processes in the data directory that belong to no run the server knows of: runs of
     * attempts settled while this agent was away, or started but never reported started.
     */
    private void killStrays(List<KnownRun> known) {
        Set<String> keep = new HashSet<>();
        known.forEach(run -> keep.add(run.jobId() + "/" + run.attempt()));
        runs.values().forEach(run -> keep.add(run.jobId() + "/" + run.attempt()));
        Path jobsFolder = settings.dataDir().resolve("jobs");
        if (!Files.isDirectory(jobsFolder)) {
            return;
        }
        try (Stream<Path> pidFiles = Files.find(jobsFolder, 4, (path, attributes) -> path.getFileName().toString().endsWith(".pid"))) {
            pidFiles.forEach(pidFile -> {
                Path attemptFolder = pidFile.getParent();
                String jobAndAttempt = attemptFolder.getParent().getParent().getFileName() + "/" + attemptFolder.getFileName();
                if (!keep.contains(jobAndAttempt)) {
                    WorkerProcess.killStray(pidFile);
                }
            });
        } catch (IOException e) {
            log.warn("Could not look for stray trainer processes under {}: {}", jobsFolder, e.toString());
        }
    }
}

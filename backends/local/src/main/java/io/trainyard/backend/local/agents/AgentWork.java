package io.trainyard.backend.local.agents;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.trainyard.backend.local.placement.AgentPlacement;
import io.trainyard.backend.local.placement.HostShare;
import io.trainyard.job.Job;
import io.trainyard.job.JobRepository;
import io.trainyard.job.JobState;
import io.trainyard.logs.LogStore;
import io.trainyard.protocol.Assignment;
import io.trainyard.protocol.Heartbeat;
import io.trainyard.protocol.KnownRun;
import io.trainyard.protocol.Registered;
import io.trainyard.protocol.Registration;
import io.trainyard.protocol.Work;
import io.trainyard.scalars.ScalarStore;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * What agents are told: at registration the runs they have, at each heartbeat the runs to start, to stop, and to
 * kill because they were settled without them. A heartbeat waits (long-poll) until there is work or the interval
 * is over: this server wakes it the moment it places or cancels a job there, and it re-reads the database every {@value #RECHECK_MILLIS} ms
 * for work placed through another replica.
 */
@Service
public class AgentWork {

    private static final long RECHECK_MILLIS = 500;
    /** The trainedModelMetadata field naming a run's TensorBoard folder, whose event files its agent follows. */
    private static final String TENSORBOARD_LOGS = "tensorboardLogsUri";

    private final AgentRegistry registry;
    private final AgentProperties properties;
    private final JobRepository jobs;
    private final LocalRuns runs;
    private final LogStore logStore;
    private final ShippedLogs shippedLogs;
    private final ScalarStore scalarStore;
    private final ShippedMetrics shippedMetrics;
    private final TrainerPrograms programs;
    private final GangHosts gangHosts;
    private final ConcurrentHashMap<String, CompletableFuture<Void>> wakeUps = new ConcurrentHashMap<>();

    public AgentWork(AgentRegistry registry, AgentProperties properties, JobRepository jobs, LocalRuns runs,
            LogStore logStore, ShippedLogs shippedLogs, ScalarStore scalarStore, ShippedMetrics shippedMetrics,
            TrainerPrograms programs, GangHosts gangHosts) {
        this.registry = registry;
        this.properties = properties;
        this.jobs = jobs;
        this.runs = runs;
        this.logStore = logStore;
        this.shippedLogs = shippedLogs;
        this.scalarStore = scalarStore;
        this.shippedMetrics = shippedMetrics;
        this.programs = programs;
        this.gangHosts = gangHosts;
    }

    /** Registers the agent under a new epoch and lists the runs it had, to re-attach to. */
    @Transactional
    public Registered register(String agentId, Registration registration) {
        long epoch = registry.register(agentId, registration);
        List<KnownRun> known = new ArrayList<>();
        for (LocalRuns.ActiveRun run : runs.onAgent(agentId)) {
            if (run.started()) {
                jobs.findById(run.jobId()).flatMap(job -> knownRun(job, run.host())).ifPresent(known::add);
            }
        }
        return new Registered(epoch, properties.heartbeatInterval().toMillis(), known, properties.lease().toMillis());
    }

    /** The host's share of a started run, with what re-attaching to it needs; the first host's follows TensorBoard. */
    private Optional<KnownRun> knownRun(Job job, int host) {
        Optional<String> runState = host == 0 ? Optional.ofNullable(job.getRunState())
                : gangHosts.runState(job.getId(), job.getAttempt(), host);
        HostShare share = AgentPlacement.of(job.getPlacement()).host(host, job.getSlots());
        return runState.map(state -> new KnownRun(job.getId(), job.getAttempt(), job.getState() == JobState.CANCELLING,
                state, job.getStartedAt(), job.getTimeoutSeconds(), logStore.readPositions(job.getId(), job.getAttempt()),
                shippedLogs.lastBatch(job.getId(), job.getAttempt(), host),
                host == 0 ? job.getOutputs().get(TENSORBOARD_LOGS) : null, scalarStore.readPositions(job.getId(), job.getAttempt()),
                shippedMetrics.lastBatch(job.getId(), job.getAttempt(), host), share.gpus()));
    }

    /**
     * Renews the agent's lease, then waits up to {@code wait} (at most a heartbeat interval) for work it does not know
     * of yet.
     *
     * @throws StaleAgentException if the epoch is no longer the agent's: it must stop its runs and register again
     */
    public Work awaitWork(String agentId, Heartbeat heartbeat, Duration wait) throws InterruptedException {
        if (!registry.heartbeat(agentId, heartbeat)) {
            throw new StaleAgentException("agent " + agentId + " epoch " + heartbeat.epoch()
                    + " was declared lost or registered again; register anew");
        }
        long deadline = System.nanoTime() + Math.clamp(wait.toNanos(), 0, properties.heartbeatInterval().toNanos());
        while (true) {
            // Taken before reading, so a wake-up between the read and the wait is not missed.
            CompletableFuture<Void> wakeUp = wakeUps.computeIfAbsent(agentId, id -> new CompletableFuture<>());
            Work work = newWork(agentId, heartbeat);
            long remainingMillis = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (!work.isEmpty() || remainingMillis <= 0) {
                return work;
            }
            try {
                wakeUp.get(Math.min(remainingMillis, RECHECK_MILLIS), TimeUnit.MILLISECONDS);
            } catch (TimeoutException | ExecutionException e) {
                // look again
            }
        }
    }

    /** Ends the wait of the agent's heartbeat: a job was placed or cancelled there. */
    public void wake(String agentId) {
        CompletableFuture<Void> wakeUp = wakeUps.remove(agentId);
        if (wakeUp != null) {
            wakeUp.complete(null);
        }
    }

    /**
     * Runs to start here (the first host's at once; the others' once the first reported where the world meets), runs to
     * stop, and runs the heartbeat lists that are no longer active here.
     */
    private Work newWork(String agentId, Heartbeat heartbeat) {
        Set<UUID> running = new HashSet<>(heartbeat.running());
        Set<UUID> cancelling = new HashSet<>(heartbeat.cancelling());
        List<Assignment> assignments = new ArrayList<>();
        List<Work.Cancel> cancels = new ArrayList<>();
        Set<UUID> settled = new HashSet<>(running);
        for (LocalRuns.ActiveRun run : runs.onAgent(agentId)) {
            settled.remove(run.jobId());
            boolean toStart = run.state() == JobState.STARTING || run.state() == JobState.RUNNING && run.host() > 0;
            if (toStart && !run.started() && !running.contains(run.jobId())) {
                jobs.findById(run.jobId()).flatMap(job -> assignment(job, run.host())).ifPresent(assignments::add);
            } else if (run.state() == JobState.CANCELLING && !cancelling.contains(run.jobId())) {
                cancels.add(new Work.Cancel(run.jobId(), run.attempt()));
            }
        }
        return new Work(assignments, cancels, List.copyOf(settled));
    }

    private Optional<Assignment> assignment(Job job, int host) {
        Optional<String> rendezvous = host == 0 ? Optional.empty() : gangHosts.rendezvous(job.getId(), job.getAttempt());
        if (host > 0 && rendezvous.isEmpty()) {
            return Optional.empty();
        }
        HostShare share = AgentPlacement.of(job.getPlacement()).host(host, job.getSlots());
        return Optional.of(new Assignment(job.getId(), job.getAttempt(), job.getJobName(), job.getTaskConfig(),
                job.getResourceConfig(), programs.of(job), share.gpus(), share.ranks(job.getSlots(), host),
                rendezvous.orElse(null), job.getTimeoutSeconds()));
    }
}

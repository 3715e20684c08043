package io.trainyard.agent;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.trainyard.agent.protocol.Assignment;
import io.trainyard.agent.protocol.Heartbeat;
import io.trainyard.agent.protocol.KnownRun;
import io.trainyard.agent.protocol.Registered;
import io.trainyard.agent.protocol.Registration;
import io.trainyard.agent.protocol.Work;
import io.trainyard.job.Job;
import io.trainyard.job.JobRepository;
import io.trainyard.job.JobState;
import io.trainyard.job.TrainerImages;
import io.trainyard.logs.LogStore;
import io.trainyard.logs.ShippedLogs;
import io.trainyard.placement.Placement;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * What agents are told: at registration the runs they have, at each heartbeat the runs to start and to
 * stop. A heartbeat waits (long-poll) until there is work or the interval is over: this server wakes it the
 * moment it places or cancels a job there, and it re-reads the database every {@value #RECHECK_MILLIS} ms
 * for work placed through another replica.
 */
@Service
public class AgentWork {

    /** The backend whose jobs agents run. */
    public static final String BACKEND = "local";
    private static final long RECHECK_MILLIS = 500;

    private final AgentRegistry registry;
    private final AgentProperties properties;
    private final JobRepository jobs;
    private final LogStore logStore;
    private final ShippedLogs shippedLogs;
    private final TrainerImages serverImages;
    private final JdbcClient jdbc;
    private final ConcurrentHashMap<String, CompletableFuture<Void>> wakeUps = new ConcurrentHashMap<>();

    public AgentWork(AgentRegistry registry, AgentProperties properties, JobRepository jobs, LogStore logStore,
            ShippedLogs shippedLogs, TrainerImages serverImages, JdbcClient jdbc) {
        this.registry = registry;
        this.properties = properties;
        this.jobs = jobs;
        this.logStore = logStore;
        this.shippedLogs = shippedLogs;
        this.serverImages = serverImages;
        this.jdbc = jdbc;
    }

    /** Registers the agent under a new epoch and lists the runs it had, to re-attach to. */
    @Transactional
    public Registered register(String agentId, Registration registration) {
        long epoch = registry.register(agentId, registration.host(), registration.gpus(), registration.cpuSlots());
        List<KnownRun> runs = jobs.findByNodeIdAndStateIn(agentId, JobState.ACTIVE).stream()
                .filter(job -> job.getBackend().equals(BACKEND) && job.getRunState() != null)
                .map(job -> new KnownRun(job.getId(), job.getAttempt(), job.getState() == JobState.CANCELLING,
                        job.getRunState(), job.getStartedAt(), job.getTimeoutSeconds(),
                        logStore.readPositions(job.getId(), job.getAttempt()),
                        shippedLogs.lastBatch(job.getId(), job.getAttempt())))
                .toList();
        return new Registered(epoch, properties.heartbeatInterval().toMillis(), runs);
    }

    /**
     * Renews the agent's lease, then waits up to {@code wait} for work it does not know of yet.
     *
     * @throws StaleAgentException if the epoch is no longer the agent's: it must stop its runs and register again
     */
    public Work awaitWork(String agentId, Heartbeat heartbeat, Duration wait) throws InterruptedException {
        if (!registry.heartbeat(agentId, heartbeat.epoch())) {
            throw new StaleAgentException("agent " + agentId + " epoch " + heartbeat.epoch()
                    + " was declared lost or registered again; register anew");
        }
        long deadline = System.nanoTime() + wait.toNanos();
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

    private Work newWork(String agentId, Heartbeat heartbeat) {
        Set<UUID> running = new HashSet<>(heartbeat.running());
        Set<UUID> cancelling = new HashSet<>(heartbeat.cancelling());
        List<Assignment> assignments = new ArrayList<>();
        List<Work.Cancel> cancels = new ArrayList<>();
        for (ActiveRun run : activeRuns(agentId)) {
            if (run.state() == JobState.STARTING && !run.started() && !running.contains(run.jobId())) {
                jobs.findById(run.jobId()).ifPresent(job -> assignments.add(assignment(job)));
            } else if (run.state() == JobState.CANCELLING && !cancelling.contains(run.jobId())) {
                cancels.add(new Work.Cancel(run.jobId(), run.attempt()));
            }
        }
        return new Work(assignments, cancels);
    }

    private record ActiveRun(UUID jobId, int attempt, JobState state, boolean started) {
    }

    /** The agent's active runs, a few columns each: read several times a second per waiting agent. */
    private List<ActiveRun> activeRuns(String agentId) {
        return jdbc.sql("""
                select id, attempt, state, run_state is not null from jobs
                where node_id = ? and backend = ? and state in ('STARTING', 'RUNNING', 'CANCELLING')""")
                .params(agentId, BACKEND)
                .query((rs, row) -> new ActiveRun(rs.getObject(1, UUID.class), rs.getInt(2), JobState.valueOf(rs.getString(3)),
                        rs.getBoolean(4)))
                .list();
    }

    private Assignment assignment(Job job) {
        TrainerImages images = new TrainerImages(job.getCpuDockerUri(), job.getCudaDockerUri()).orElse(serverImages);
        return new Assignment(job.getId(), job.getAttempt(), job.getJobName(), job.getTaskConfig(), job.getResourceConfig(),
                Placement.fromJson(job.getPlacement()), job.getSlots(), job.getTimeoutSeconds(), images);
    }
}

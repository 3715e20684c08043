package io.trainyard.agent;

import java.time.Duration;
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
    private static final long RECHECK_MILLIS = 250;

    private final AgentRegistry registry;
    private final AgentProperties properties;
    private final JobRepository jobs;
    private final LogStore logStore;
    private final ShippedLogs shippedLogs;
    private final TrainerImages serverImages;
    private final ConcurrentHashMap<String, CompletableFuture<Void>> wakeUps = new ConcurrentHashMap<>();

    public AgentWork(AgentRegistry registry, AgentProperties properties, JobRepository jobs, LogStore logStore,
            ShippedLogs shippedLogs, TrainerImages serverImages) {
        this.registry = registry;
        this.properties = properties;
        this.jobs = jobs;
        this.logStore = logStore;
        this.shippedLogs = shippedLogs;
        this.serverImages = serverImages;
    }

    /** Registers the agent under a new epoch and lists the runs it had, to re-attach to. */
    @Transactional
    public Registered register(String agentId, Registration registration) {
        long epoch = registry.register(agentId, registration.host(), registration.gpus(), registration.cpuSlots());
        List<KnownRun> runs = activeJobs(agentId).stream()
                .filter(job -> job.getRunState() != null)
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
        List<Job> active = activeJobs(agentId);
        List<Assignment> assignments = active.stream()
                .filter(job -> job.getState() == JobState.STARTING && job.getRunState() == null && !running.contains(job.getId()))
                .map(this::assignment)
                .toList();
        List<Work.Cancel> cancels = active.stream()
                .filter(job -> job.getState() == JobState.CANCELLING && !cancelling.contains(job.getId()))
                .map(job -> new Work.Cancel(job.getId(), job.getAttempt()))
                .toList();
        return new Work(assignments, cancels);
    }

    private List<Job> activeJobs(String agentId) {
        return jobs.findByNodeIdAndStateIn(agentId, JobState.ACTIVE).stream()
                .filter(job -> job.getBackend().equals(BACKEND))
                .toList();
    }

    private Assignment assignment(Job job) {
        TrainerImages images = new TrainerImages(job.getCpuDockerUri(), job.getCudaDockerUri()).orElse(serverImages);
        return new Assignment(job.getId(), job.getAttempt(), job.getJobName(), job.getTaskConfig(), job.getResourceConfig(),
                Placement.fromJson(job.getPlacement()), job.getSlots(), job.getTimeoutSeconds(), images);
    }
}

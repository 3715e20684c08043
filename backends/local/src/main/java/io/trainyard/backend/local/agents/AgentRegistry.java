package io.trainyard.backend.local.agents;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import io.trainyard.database.DatabaseReconnected;
import io.trainyard.job.FailureCause;
import io.trainyard.job.Job;
import io.trainyard.job.JobRepository;
import io.trainyard.job.JobState;
import io.trainyard.job.JobTransitions;
import io.trainyard.job.RunOutcome;
import io.trainyard.protocol.Gpu;
import io.trainyard.protocol.Heartbeat;
import io.trainyard.protocol.Registration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.json.JsonMapper;

/**
 * Agents register their inventory, renew a lease by heartbeat and are declared lost when the lease runs
 * out: their jobs then fail with cause INFRASTRUCTURE (and are retried if their policy allows). Every
 * registration starts a new epoch, so a heartbeat from a stale agent process is refused. Leases are kept on
 * the database's clock, so replicas whose clocks disagree still agree on who is lost.
 */
@Service
public class AgentRegistry {

    private static final Logger log = LoggerFactory.getLogger(AgentRegistry.class);
    /** A replica silent this long may have lost the database (it probes every second). */
    private static final Duration STALE_REPLICA = Duration.ofSeconds(3);

    private final AgentRepository agents;
    private final JobRepository jobs;
    private final JobTransitions transitions;
    private final AgentProperties properties;
    private final JsonMapper json;
    private final LocalRuns runs;

    public AgentRegistry(AgentRepository agents, JobRepository jobs, JobTransitions transitions,
            AgentProperties properties, JsonMapper json, LocalRuns runs) {
        this.runs = runs;
        this.agents = agents;
        this.jobs = jobs;
        this.transitions = transitions;
        this.properties = properties;
        this.json = json;
    }

    /** Registers (or re-registers) an agent and returns its new epoch. */
    @Transactional
    public long register(String id, Registration registration) {
        String host = registration.host();
        List<Gpu> gpus = registration.gpus();
        int cpuSlots = registration.cpuSlots();
        Instant now = agents.databaseNow();
        Agent agent = agents.lockById(id).orElseGet(() -> new Agent(id));
        agent.register(host, gpus, cpuSlots, now, now.plus(properties.lease()));
        agents.save(agent);
        log.info("Agent {} on {} registered: epoch {}, {} GPU(s), {} CPU slot(s)", id, host, agent.getEpoch(), gpus.size(), cpuSlots);
        return agent.getEpoch();
    }

    /**
     * Renews the lease of the agent's current epoch, and keeps the GPU samples the heartbeat carries.
     *
     * @return false if the agent was declared lost or registered again since: it must register anew and
     *     must not act for its old runs
     */
    @Transactional
    public boolean heartbeat(String id, Heartbeat heartbeat) {
        String gpuSamples = heartbeat.gpus() == null ? null : json.writeValueAsString(heartbeat.gpus());
        return agents.renew(id, heartbeat.epoch(), leaseSeconds(), gpuSamples) == 1;
    }

    /** Declares agents with an expired lease lost and fails their active jobs; returns how many. */
    @Transactional
    public int reapExpired() {
        List<Agent> expired = agents.lockExpired(STALE_REPLICA.toMillis() / 1000.0, leaseSeconds());
        for (Agent agent : expired) {
            agent.markLost();
            // Its jobs, and the jobs spanning several agents it has a share of: the other hosts learn at their next
            // heartbeat that the job is over, and kill their processes.
            List<LocalRuns.ActiveRun> active = runs.onAgent(agent.getId());
            log.warn("Agent {} missed its lease (last heartbeat {}); failing its {} active job(s)",
                    agent.getId(), agent.getLastHeartbeatAt(), active.size());
            for (LocalRuns.ActiveRun run : active) {
                transitions.finish(run.jobId(), run.attempt(), RunOutcome.failed(FailureCause.INFRASTRUCTURE, null,
                        "agent " + agent.getId() + " stopped renewing its lease (last heartbeat " + agent.getLastHeartbeatAt() + ")"));
            }
        }
        return expired.size();
    }

    /**
     * This replica could not reach the database for a while: no agent heartbeating through it could renew its
     * lease, so every active agent gets one full lease from now, and each active job on one is told why.
     */
    @Transactional
    public void extendLeasesAfterOutage(DatabaseReconnected outage) {
        int extended = agents.extendLeasesAfterOutage(leaseSeconds(), outage.lostAt(), outage.backAt(), outage.replica());
        String message = "replica " + outage.replica() + " could not reach the database from " + outage.lostAt() + " to "
                + outage.backAt() + "; every agent's lease was pushed out by " + properties.lease().toSeconds() + " s";
        for (Agent agent : agents.findAllByOrderByIdAsc()) {
            if (agent.getState() == AgentState.ACTIVE) {
                for (Job job : jobs.findByNodeIdAndStateIn(agent.getId(), JobState.ACTIVE)) {
                    transitions.note(job.getId(), job.getAttempt(), message);
                }
            }
        }
        log.warn("Pushed out the leases of {} active agent(s) by {} after the database outage seen by replica {}",
                extended, properties.lease(), outage.replica());
    }

    private double leaseSeconds() {
        return properties.lease().toMillis() / 1000.0;
    }

    public List<Agent> all() {
        return agents.findAllByOrderByIdAsc();
    }
}

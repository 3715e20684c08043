package io.trainyard.placement;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.trainyard.agent.Agent;
import io.trainyard.agent.AgentRepository;
import io.trainyard.agent.AgentState;
import io.trainyard.agent.Gpu;
import io.trainyard.job.Job;
import io.trainyard.job.JobRepository;
import io.trainyard.job.JobState;
import org.springframework.stereotype.Repository;

/**
 * The pool's capacity as PostgreSQL knows it: every active agent's inventory minus the placements of the
 * jobs active on it. Nothing is held in memory, so there is nothing to release or restore: a job's
 * resources are free again the moment its end is committed.
 */
@Repository
public class PoolCapacity {

    private final AgentRepository agents;
    private final JobRepository jobs;

    public PoolCapacity(AgentRepository agents, JobRepository jobs) {
        this.agents = agents;
        this.jobs = jobs;
    }

    /** Active agents with what is free on each now. */
    public List<AgentCapacity> activeAgents() {
        Map<String, AgentCapacity> byId = new LinkedHashMap<>();
        for (Agent agent : agents.findAllByOrderByIdAsc()) {
            if (agent.getState() == AgentState.ACTIVE) {
                byId.put(agent.getId(), new AgentCapacity(agent.getId(), agent.getGpus().stream().map(Gpu::index).toList(),
                        agent.getCpuSlots()));
            }
        }
        for (Job job : jobs.findByStateIn(JobState.ACTIVE)) {
            AgentCapacity agent = byId.get(job.getNodeId());
            if (agent != null && job.getPlacement() != null) {
                agent.take(Placement.fromJson(job.getPlacement()));
            }
        }
        return new ArrayList<>(byId.values());
    }
}

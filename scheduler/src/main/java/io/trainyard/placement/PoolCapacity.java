package io.trainyard.placement;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.trainyard.agent.Agent;
import io.trainyard.agent.AgentRepository;
import io.trainyard.agent.AgentState;
import io.trainyard.agent.AgentWork;
import io.trainyard.agent.Gpu;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The pool's capacity as PostgreSQL knows it: every active agent's inventory minus the placements of the
 * jobs active on it. Nothing is held in memory, so there is nothing to release or restore: a job's
 * resources are free again the moment its end is committed.
 */
@Repository
public class PoolCapacity {

    private final AgentRepository agents;
    private final JdbcClient jdbc;

    public PoolCapacity(AgentRepository agents, JdbcClient jdbc) {
        this.agents = agents;
        this.jdbc = jdbc;
    }

    /** A job holding part of an agent: the pool's capacity is the agents' inventory minus these. */
    public record ActivePlacement(UUID jobId, String jobName, int workers, Placement placement) {
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
        for (ActivePlacement active : activePlacements()) {
            AgentCapacity agent = byId.get(active.placement().node());
            if (agent != null) {
                agent.take(active.placement());
            }
        }
        return new ArrayList<>(byId.values());
    }

    /** What every active job of the pool holds, on whichever agent. */
    public List<ActivePlacement> activePlacements() {
        // Only the columns needed: thousands of running jobs are read on every dispatch pass.
        return jdbc.sql("""
                select id, job_name, slots, placement from jobs
                where state in ('STARTING', 'RUNNING', 'CANCELLING') and backend = ? and placement is not null""")
                .param(AgentWork.BACKEND)
                .query((rs, row) -> new ActivePlacement(rs.getObject(1, UUID.class), rs.getString(2), rs.getInt(3),
                        Placement.fromJson(rs.getString(4))))
                .list();
    }
}

package io.trainyard.placement;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.trainyard.agent.Agent;
import io.trainyard.agent.AgentRepository;
import io.trainyard.agent.AgentState;
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

    /** Active agents with what is free on each now. */
    public List<AgentCapacity> activeAgents() {
        Map<String, AgentCapacity> byId = new LinkedHashMap<>();
        for (Agent agent : agents.findAllByOrderByIdAsc()) {
            if (agent.getState() == AgentState.ACTIVE) {
                byId.put(agent.getId(), new AgentCapacity(agent.getId(), agent.getGpus().stream().map(Gpu::index).toList(),
                        agent.getCpuSlots()));
            }
        }
        // Only the two columns needed: thousands of running jobs are read on every placement.
        jdbc.sql("""
                select node_id, placement from jobs
                where state in ('STARTING', 'RUNNING', 'CANCELLING') and placement is not null""")
                .query((rs, row) -> {
                    AgentCapacity agent = byId.get(rs.getString(1));
                    if (agent != null) {
                        agent.take(Placement.fromJson(rs.getString(2)));
                    }
                    return agent;
                })
                .list();
        return new ArrayList<>(byId.values());
    }
}

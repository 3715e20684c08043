package io.trainyard.backend.local.placement;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.trainyard.backend.local.agents.Agent;
import io.trainyard.backend.local.agents.AgentRepository;
import io.trainyard.backend.local.agents.AgentState;
import io.trainyard.backend.local.agents.LocalRuns;
import io.trainyard.protocol.Gpu;
import org.springframework.stereotype.Repository;

/**
 * The pool's capacity as PostgreSQL knows it: every active agent's inventory minus the placements of the
 * jobs active on it. Nothing is held in memory, so there is nothing to release or restore: a job's
 * resources are free again the moment its end is committed.
 */
@Repository
public class PoolCapacity {

    private final AgentRepository agents;
    private final LocalRuns runs;

    public PoolCapacity(AgentRepository agents, LocalRuns runs) {
        this.agents = agents;
        this.runs = runs;
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
        List<AgentCapacity> active = new ArrayList<>(byId.values());
        for (LocalRuns.ActivePlacement running : runs.placements()) {
            Placer.take(active, running.placement(), running.workers());
        }
        return active;
    }
}

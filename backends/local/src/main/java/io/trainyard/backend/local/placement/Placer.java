package io.trainyard.backend.local.placement;

import java.util.Comparator;
import java.util.List;

import io.trainyard.backend.PlacementDecision;

/**
 * Gang placement with best fit: a job's workers all start at once or not at all. They go to one agent when one can
 * ever hold them, the one that fits now with the least left over of what the job uses (so small jobs fill partly
 * used hosts and large ones find whole ones; ties go to the agent listed first). A job that asks for {@code nodes}
 * hosts, or that no agent could ever hold alone, is spread over several ({@link GangPlacer}). A job that the pool
 * could never hold is never placeable.
 */
public final class Placer {

    private Placer() {
    }

    public static PlacementDecision place(Demand demand, List<AgentCapacity> agents) {
        if (agents.isEmpty()) {
            return new PlacementDecision.Wait("no agent is registered");
        }
        if (demand.nodes() > 1) {
            return GangPlacer.spreadEvenly(demand, agents);
        }
        if (agents.stream().allMatch(agent -> agent.shapeFor(demand) == null)) {
            return GangPlacer.spreadOverFewest(demand, agents);
        }
        AgentPlacement best = null;
        int bestLeftover = Integer.MAX_VALUE;
        for (AgentCapacity agent : agents) {
            AgentPlacement fit = agent.fitNow(demand);
            if (fit != null && agent.leftoverAfter(fit) < bestLeftover) {
                best = fit;
                bestLeftover = agent.leftoverAfter(fit);
            }
        }
        return best == null ? new PlacementDecision.Wait(waitingReason(demand, agents))
                : new PlacementDecision.Placed(best.node(), best.tagged());
    }

    /** Takes what a placed or running job holds out of the agents' free capacity. */
    public static void take(List<AgentCapacity> agents, AgentPlacement placement, int workers) {
        for (HostShare share : placement.hosts(workers)) {
            agents.stream().filter(agent -> agent.agentId().equals(share.node())).findFirst().ifPresent(agent -> agent.take(share));
        }
    }

    /** What the job needs, and what the agent that could hold it with the most free has now. */
    private static String waitingReason(Demand demand, List<AgentCapacity> agents) {
        AgentCapacity closest = agents.stream().filter(agent -> agent.shapeFor(demand) != null)
                .max(Comparator.comparingInt(agent -> agent.leftoverAfter(agent.shapeFor(demand)))).orElseThrow();
        AgentPlacement shape = closest.shapeFor(demand);
        String needs = shape.usesGpus() ? demand.workers() + " GPU(s)" : shape.cpuSlots() + " CPU slot(s)";
        return "needs " + needs + " on one host; the best host, " + closest.agentId() + ", has " + closest.describeFree();
    }
}

package io.trainyard.backend.local.placement;

import java.util.Comparator;
import java.util.List;

import io.trainyard.backend.PlacementDecision;

/**
 * Gang placement with best fit: all of a job's workers go to one agent, the one that fits now with the
 * least left over of what the job uses (so small jobs fill partly used hosts and large ones find whole
 * ones); ties go to the agent listed first. A job that no agent can ever hold is never placeable.
 */
public final class Placer {

    private Placer() {
    }

    public static PlacementDecision place(Demand demand, List<AgentCapacity> agents) {
        if (agents.isEmpty()) {
            return new PlacementDecision.Wait("no agent is registered");
        }
        if (agents.stream().allMatch(agent -> agent.shapeFor(demand) == null)) {
            int mostGpus = agents.stream().mapToInt(AgentCapacity::gpuCount).max().orElse(0);
            return new PlacementDecision.Never("the job requires " + demand.workers() + " GPU(s) on one host and the "
                    + "largest host has " + mostGpus);
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

    /** What the job needs, and what the agent that could hold it with the most free has now. */
    private static String waitingReason(Demand demand, List<AgentCapacity> agents) {
        AgentCapacity closest = agents.stream().filter(agent -> agent.shapeFor(demand) != null)
                .max(Comparator.comparingInt(agent -> agent.leftoverAfter(agent.shapeFor(demand)))).orElseThrow();
        AgentPlacement shape = closest.shapeFor(demand);
        String needs = shape.usesGpus() ? demand.workers() + " GPU(s)" : shape.cpuSlots() + " CPU slot(s)";
        return "needs " + needs + " on one host; the best host, " + closest.agentId() + ", has " + closest.describeFree();
    }
}

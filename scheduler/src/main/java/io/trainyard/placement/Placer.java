package io.trainyard.placement;

import java.util.List;

/**
 * Gang placement with best fit: all of a job's workers go to one agent, the one that fits now with the
 * least left over of what the job uses (so small jobs fill partly used hosts and large ones find whole
 * ones); ties go to the agent listed first. A job that no agent can ever hold is never placeable.
 */
public final class Placer {

    private Placer() {
    }

    public static PlacementDecision place(Demand demand, List<AgentCapacity> agents) {
        if (!agents.isEmpty() && agents.stream().allMatch(agent -> agent.shapeFor(demand) == null)) {
            int mostGpus = agents.stream().mapToInt(AgentCapacity::gpuCount).max().orElse(0);
            return new PlacementDecision.Never("the job requires " + demand.workers() + " GPU(s) on one host and the "
                    + "largest host has " + mostGpus);
        }
        Placement best = null;
        int bestLeftover = Integer.MAX_VALUE;
        for (AgentCapacity agent : agents) {
            Placement fit = agent.fitNow(demand);
            if (fit != null && agent.leftoverAfter(fit) < bestLeftover) {
                best = fit;
                bestLeftover = agent.leftoverAfter(fit);
            }
        }
        return best == null ? new PlacementDecision.Wait() : new PlacementDecision.OnAgent(best);
    }
}

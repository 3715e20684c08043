package io.trainyard.backend.local.placement;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.trainyard.backend.PlacementDecision;

/**
 * Places a job over several agents at once, all or nothing: every host's share is free now, or the job waits and
 * nothing is taken (the queue's starvation rule then holds back the jobs behind it, so hosts drain for it). The
 * first host runs rank 0 and is where the job's world meets.
 */
final class GangPlacer {

    private GangPlacer() {
    }

    /**
     * A job that asks for {@code nodes} hosts: the same number of workers on each, on GPUs when it requires them or
     * enough hosts have that many, else on CPU slots; the hosts that fit now with the least left over.
     */
    static PlacementDecision spreadEvenly(Demand demand, List<AgentCapacity> agents) {
        int hosts = demand.nodes();
        int perHost = demand.workers() / hosts;
        boolean onGpus = demand.requireGpus() || agents.stream().filter(agent -> agent.canHoldShare(perHost, true)).count() >= hosts;
        String each = onGpus ? perHost + " GPU(s)" : "room for " + perHost + " worker(s) on CPU slots";
        List<AgentCapacity> able = agents.stream().filter(agent -> agent.canHoldShare(perHost, onGpus)).toList();
        if (able.size() < hosts) {
            return new PlacementDecision.Never("the job needs " + hosts + " hosts with " + each + " each and the pool has "
                    + able.size());
        }
        // A stable sort: among equally tight fits the agent listed first wins.
        List<AgentCapacity> fitting = able.stream().filter(agent -> agent.shareNow(perHost, onGpus, 0) != null)
                .sorted(Comparator.comparingInt(agent -> agent.leftoverAfter(agent.shareNow(perHost, onGpus, 0)))).toList();
        if (fitting.size() < hosts) {
            return new PlacementDecision.Wait("needs " + hosts + " hosts with " + each + " free; " + fitting.size()
                    + (fitting.size() == 1 ? " has" : " have"));
        }
        List<HostShare> shares = new ArrayList<>(hosts);
        for (int host = 0; host < hosts; host++) {
            shares.add(fitting.get(host).shareNow(perHost, onGpus, host * perHost));
        }
        return placed(onGpus, shares);
    }

    /**
     * A job that requires more GPUs than any one agent has: over as few agents as could ever hold it, those with the
     * most GPUs free now, each filled before the next (so the shares may differ).
     */
    static PlacementDecision spreadOverFewest(Demand demand, List<AgentCapacity> agents) {
        int workers = demand.workers();
        List<Integer> inventories = agents.stream().map(AgentCapacity::gpuCount).sorted(Comparator.reverseOrder()).toList();
        int total = inventories.stream().mapToInt(Integer::intValue).sum();
        if (total < workers) {
            return new PlacementDecision.Never("the job requires " + workers + " GPU(s); the largest host has "
                    + inventories.getFirst() + " and the pool " + total + " on " + agents.size() + " host(s)");
        }
        int hosts = 0;
        for (int covered = 0; covered < workers; hosts++) {
            covered += inventories.get(hosts);
        }
        List<AgentCapacity> mostFree = agents.stream().filter(agent -> agent.freeGpuCount() > 0)
                .sorted(Comparator.comparingInt(AgentCapacity::freeGpuCount).reversed()).limit(hosts).toList();
        int free = mostFree.stream().mapToInt(AgentCapacity::freeGpuCount).sum();
        if (free < workers) {
            return new PlacementDecision.Wait("needs " + workers + " GPU(s) free on " + hosts + " hosts; the " + hosts
                    + " with the most free have " + free);
        }
        List<HostShare> shares = new ArrayList<>(hosts);
        int firstRank = 0;
        for (AgentCapacity agent : mostFree) {
            int share = Math.min(agent.freeGpuCount(), workers - firstRank);
            shares.add(agent.shareNow(share, true, firstRank));
            firstRank += share;
        }
        return placed(true, shares);
    }

    private static PlacementDecision placed(boolean onGpus, List<HostShare> shares) {
        AgentPlacement placement = AgentPlacement.gang(onGpus ? "gpu" : "cpu", shares);
        return new PlacementDecision.Placed(placement.node(), placement.tagged());
    }
}

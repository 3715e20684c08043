package io.trainyard.backend.local.placement;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * One agent's inventory and what of it is free right now. A job's workers each take a GPU when the agent
 * has enough GPUs, otherwise a CPU slot, unless the job requires GPUs. A CPU job with more workers than the
 * agent has slots still runs, once it has the agent to itself: a job always runs somewhere unless it
 * insists on GPUs.
 */
public final class AgentCapacity {

    private final String agentId;
    private final List<Integer> gpus;
    private final int cpuSlots;
    private final TreeSet<Integer> freeGpus;
    private int freeCpuSlots;

    public AgentCapacity(String agentId, List<Integer> gpus, int cpuSlots) {
        this.agentId = agentId;
        this.gpus = List.copyOf(gpus);
        this.cpuSlots = cpuSlots;
        this.freeGpus = new TreeSet<>(gpus);
        this.freeCpuSlots = cpuSlots;
    }

    public String agentId() {
        return agentId;
    }

    public int gpuCount() {
        return gpus.size();
    }

    /** Marks what a running job holds as taken. */
    public void take(AgentPlacement placement) {
        freeGpus.removeAll(placement.gpus());
        freeCpuSlots -= placement.cpuSlots();
    }

    /** What the job would take here, free or not; null if this agent can never hold it. */
    public AgentPlacement shapeFor(Demand demand) {
        if (!gpus.isEmpty() && demand.workers() <= gpus.size()) {
            return AgentPlacement.onGpus(agentId, gpus.subList(0, demand.workers()));
        }
        if (demand.requireGpus()) {
            return null;
        }
        return AgentPlacement.onCpu(agentId, Math.min(demand.workers(), cpuSlots));
    }

    /** The concrete placement of the job if it fits now (lowest free GPU indices), else null. */
    public AgentPlacement fitNow(Demand demand) {
        AgentPlacement shape = shapeFor(demand);
        if (shape == null) {
            return null;
        }
        if (shape.usesGpus()) {
            return freeGpus.size() < demand.workers() ? null
                    : AgentPlacement.onGpus(agentId, new ArrayList<>(freeGpus).subList(0, demand.workers()));
        }
        return freeCpuSlots < shape.cpuSlots() ? null : shape;
    }

    /** Free GPUs now, or free CPU slots on an agent without GPUs: what a waiting job is told it lacks. */
    public String describeFree() {
        return gpus.isEmpty() ? freeCpuSlots + " of " + cpuSlots + " CPU slot(s) free"
                : freeGpus.size() + " of " + gpus.size() + " GPU(s) free";
    }

    /** What stays free of the resource the placement uses, once it is taken: smaller is a tighter fit. */
    public int leftoverAfter(AgentPlacement placement) {
        return placement.usesGpus() ? freeGpus.size() - placement.gpus().size() : freeCpuSlots - placement.cpuSlots();
    }
}

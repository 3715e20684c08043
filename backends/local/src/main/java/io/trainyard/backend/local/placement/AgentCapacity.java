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

    /** The same agent with nothing taken: where a job would go on an idle pool. */
    public AgentCapacity idle() {
        return new AgentCapacity(agentId, gpus, cpuSlots);
    }

    public int freeGpuCount() {
        return freeGpus.size();
    }

    /** Marks what a running job holds here as taken. */
    public void take(HostShare share) {
        freeGpus.removeAll(share.gpus());
        freeCpuSlots -= share.cpuSlots();
    }

    /** Whether this agent can ever run {@code workers} of a gang's processes on GPUs (one each), or on CPU slots. */
    boolean canHoldShare(int workers, boolean onGpus) {
        return onGpus ? gpus.size() >= workers : cpuSlots > 0;
    }

    /**
     * {@code workers} of a gang's processes from rank {@code firstRank}, here now (the lowest free GPUs, or as many CPU
     * slots as it has up to one a worker), or null if that is not free.
     */
    HostShare shareNow(int workers, boolean onGpus, int firstRank) {
        if (onGpus) {
            return freeGpus.size() < workers ? null
                    : new HostShare(agentId, new ArrayList<>(freeGpus).subList(0, workers), 0, firstRank, workers);
        }
        int slots = Math.min(workers, cpuSlots);
        return freeCpuSlots < slots ? null : new HostShare(agentId, List.of(), slots, firstRank, workers);
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

    /** What stays free of the resource the share uses, once it is taken: smaller is a tighter fit. */
    int leftoverAfter(HostShare share) {
        return share.gpus().isEmpty() ? freeCpuSlots - share.cpuSlots() : freeGpus.size() - share.gpus().size();
    }

    /** What stays free of the resource the placement uses, once it is taken: smaller is a tighter fit. */
    public int leftoverAfter(AgentPlacement placement) {
        return placement.usesGpus() ? freeGpus.size() - placement.gpus().size() : freeCpuSlots - placement.cpuSlots();
    }
}

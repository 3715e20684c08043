package io.trainyard.backend.local.placement;

import java.util.ArrayList;
import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;
import io.trainyard.job.Placement;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * Where a local job runs: on one agent ({@code node}), one GPU each ({@code device = "gpu"}) or on CPU slots
 * ({@code device = "cpu"}); a job spread over several agents (a gang) starts there, with rank 0, and goes on on
 * {@code moreHosts}, in rank order. The pool's free capacity is derived from these. Stored on the job tagged
 * {@value #KIND}; its schema keeps the name the API has always given it.
 */
@Schema(name = "OnAgent", description = "Where a job's workers run: one agent, one GPU each or on CPU slots; a job spread over "
        + "several agents starts there (rank 0) and goes on on moreHosts")
@NullMarked
public record AgentPlacement(String node, String device, List<Integer> gpus, int cpuSlots,
        @Schema(description = "The other agents of a job spread over several, in rank order; empty when it runs on one")
        List<HostShare> moreHosts) {

    public static final String KIND = "agent";

    /** Placements stored before jobs could span agents have no {@code moreHosts}. */
    public AgentPlacement(String node, String device, List<Integer> gpus, int cpuSlots, @Nullable List<HostShare> moreHosts) {
        this.node = node;
        this.device = device;
        this.gpus = List.copyOf(gpus);
        this.cpuSlots = cpuSlots;
        this.moreHosts = moreHosts == null ? List.of() : List.copyOf(moreHosts);
    }

    public static AgentPlacement onGpus(String node, List<Integer> gpus) {
        return new AgentPlacement(node, "gpu", gpus, 0, List.of());
    }

    public static AgentPlacement onCpu(String node, int cpuSlots) {
        return new AgentPlacement(node, "cpu", List.of(), cpuSlots, List.of());
    }

    /** A job spread over the agents of {@code shares}, the first of which runs rank 0. */
    public static AgentPlacement gang(String device, List<HostShare> shares) {
        HostShare first = shares.getFirst();
        return new AgentPlacement(first.node(), device, first.gpus(), first.cpuSlots(), shares.subList(1, shares.size()));
    }

    /** A job's placement as the local backend stored it. */
    public static AgentPlacement of(Placement placement) {
        return placement.as(AgentPlacement.class);
    }

    public boolean usesGpus() {
        return "gpu".equals(device);
    }

    /** Whether the job spans several agents. */
    public boolean spansHosts() {
        return !moreHosts.isEmpty();
    }

    /** Every agent's share of a job of {@code workers} processes, the first host's first. */
    public List<HostShare> hosts(int workers) {
        int onOthers = moreHosts.stream().mapToInt(HostShare::workers).sum();
        List<HostShare> hosts = new ArrayList<>(moreHosts.size() + 1);
        hosts.add(new HostShare(node, gpus, cpuSlots, 0, workers - onOthers));
        hosts.addAll(moreHosts);
        return hosts;
    }

    /** Host {@code host}'s share (0: the first host) of a job of {@code workers} processes. */
    public HostShare host(int host, int workers) {
        return hosts(workers).get(host);
    }

    /** This placement as the core stores it. */
    public Placement tagged() {
        return Placement.of(KIND, this);
    }
}

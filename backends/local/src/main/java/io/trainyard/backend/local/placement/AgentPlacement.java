package io.trainyard.backend.local.placement;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;
import io.trainyard.job.Placement;
import org.jspecify.annotations.NullMarked;

/**
 * Where a local job runs: all of its workers on one agent ({@code node}), one GPU each ({@code device = "gpu"})
 * or on CPU slots ({@code device = "cpu"}). The pool's free capacity is derived from these. Stored on the job
 * tagged {@value #KIND}; its schema keeps the name the API has always given it.
 */
@Schema(name = "OnAgent", description = "All of a job's workers on one agent, one GPU each or on CPU slots")
@NullMarked
public record AgentPlacement(String node, String device, List<Integer> gpus, int cpuSlots) {

    public static final String KIND = "agent";

    public static AgentPlacement onGpus(String node, List<Integer> gpus) {
        return new AgentPlacement(node, "gpu", List.copyOf(gpus), 0);
    }

    public static AgentPlacement onCpu(String node, int cpuSlots) {
        return new AgentPlacement(node, "cpu", List.of(), cpuSlots);
    }

    /** A job's placement as the local backend stored it. */
    public static AgentPlacement of(Placement placement) {
        return placement.as(AgentPlacement.class);
    }

    public boolean usesGpus() {
        return "gpu".equals(device);
    }

    /** This placement as the core stores it. */
    public Placement tagged() {
        return Placement.of(KIND, this);
    }
}

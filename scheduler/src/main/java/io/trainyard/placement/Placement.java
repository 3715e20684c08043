package io.trainyard.placement;

import java.util.List;

import tools.jackson.databind.json.JsonMapper;

/**
 * Where a job's workers run: all on one agent ({@code node}), one GPU each ({@code device = "gpu"}) or on
 * CPU slots. Stored on the job as JSON and shown to users; the pool's free capacity is derived from it.
 */
public record Placement(String node, String device, List<Integer> gpus, int cpuSlots) {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    public static Placement onGpus(String node, List<Integer> gpus) {
        return new Placement(node, "gpu", List.copyOf(gpus), 0);
    }

    public static Placement onCpu(String node, int cpuSlots) {
        return new Placement(node, "cpu", List.of(), cpuSlots);
    }

    public boolean usesGpus() {
        return "gpu".equals(device);
    }

    public String toJson() {
        return JSON.writeValueAsString(this);
    }

    public static Placement fromJson(String json) {
        return JSON.readValue(json, Placement.class);
    }
}

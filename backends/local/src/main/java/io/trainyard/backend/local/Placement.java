package io.trainyard.backend.local;

import java.util.List;

import tools.jackson.databind.json.JsonMapper;

/**
 * Where a local job's workers run: one GPU each ({@code device = "gpu"}), or CPU slots. Stored on the job
 * as JSON and shown to users.
 */
public record Placement(String node, String device, List<Integer> gpus, int cpuSlots) {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    static Placement onGpus(String node, List<Integer> gpus) {
        return new Placement(node, "gpu", List.copyOf(gpus), 0);
    }

    static Placement onCpu(String node, int cpuSlots) {
        return new Placement(node, "cpu", List.of(), cpuSlots);
    }

    boolean usesGpus() {
        return "gpu".equals(device);
    }

    String toJson() {
        return JSON.writeValueAsString(this);
    }

    static Placement fromJson(String json) {
        return JSON.readValue(json, Placement.class);
    }
}

package io.trainyard.agent.protocol;

import java.util.List;

import io.trainyard.agent.Gpu;

/** An agent introduces itself: its host and inventory (GPUs, or CPU slots on a host without them). */
public record Registration(String host, List<Gpu> gpus, int cpuSlots) {
}

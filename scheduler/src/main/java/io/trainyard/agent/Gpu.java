package io.trainyard.agent;

/** A GPU of an agent's host as {@code nvidia-smi} reports it. */
public record Gpu(int index, String model, long memoryMiB) {
}

package io.trainyard.backend.local;

/** A GPU of this host as {@code nvidia-smi} reports it. */
public record Gpu(int index, String model, long memoryMiB) {
}

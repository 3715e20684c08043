package io.trainyard.protocol;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;

/** A GPU of an agent's host as {@code nvidia-smi} reports it. */
public record Gpu(@Min(0) int index, @NotBlank String model, @Min(0) long memoryMiB) {
}

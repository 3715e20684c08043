package io.trainyard.protocol;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;

/** The run ended, and every log line of it was acknowledged first. */
public record Ended(long epoch, @NotNull @Valid RunEnd end) {
}

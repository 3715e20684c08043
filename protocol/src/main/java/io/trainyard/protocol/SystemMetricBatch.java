package io.trainyard.protocol;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnore;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

/**
 * A run's next system metric samples (see {@link SystemMetricNames}), shipped like a {@link MetricBatch}: resent
 * until acknowledged, stored once. Its number is the time the agent made it (ms since the epoch, kept rising within
 * the agent), so a restarted agent's batches come after its predecessor's without being told where they stopped.
 */
public record SystemMetricBatch(long epoch, @Min(1) long batch, @NotNull List<@NotNull ScalarSeries> series) {

    public static final int MAX_POINTS_PER_BATCH = 64_000;

    @AssertTrue(message = "must hold at most " + MAX_POINTS_PER_BATCH + " points, each series' arrays of one length")
    @JsonIgnore
    public boolean isWellFormed() {
        return series.stream().mapToInt(ScalarSeries::size).sum() <= MAX_POINTS_PER_BATCH && series.stream().allMatch(ScalarSeries::isAligned);
    }
}

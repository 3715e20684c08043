package io.trainyard.protocol;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnore;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

/**
 * The next scalar points a run wrote to its TensorBoard event files, shipped like {@link LogBatch}es: numbered
 * 1, 2, … per attempt, resent until acknowledged, stored once.
 *
 * @param positions for each event file read (by its path under the run's TensorBoard folder), the byte offset
 *     just past the last record these points came from: where reading resumes after a restart
 * @param skipped what damage in the event files was skipped while reading them (stored as log lines)
 */
public record MetricBatch(
        long epoch,
        @Min(1) long batch,
        @NotNull List<@NotNull ScalarSeries> series,
        @NotNull Map<String, Long> positions,
        @NotNull List<@NotNull String> skipped) {

    public static final int MAX_POINTS_PER_BATCH = 64_000;

    public int pointCount() {
        return series.stream().mapToInt(ScalarSeries::size).sum();
    }

    @AssertTrue(message = "must hold at most " + MAX_POINTS_PER_BATCH + " points, each series' arrays of one length")
    @JsonIgnore
    public boolean isWellFormed() {
        return pointCount() <= MAX_POINTS_PER_BATCH && series.stream().allMatch(ScalarSeries::isAligned);
    }
}

package io.trainyard.api.metrics;

import io.trainyard.scalars.ScalarStore;
import org.jspecify.annotations.Nullable;

/**
 * A tag of a job's scalars (or of its system metrics).
 *
 * @param points how many points it has, over all attempts and ranks
 * @param min the lowest value that is not NaN (null if all are NaN)
 * @param mean of its values that are not NaN, over all attempts (null if it has none)
 * @param lastValue the value of its last stored point of {@code lastAttempt}
 */
public record MetricTagView(String tag, long points, long firstStep, long lastStep, @Nullable Double min, @Nullable Double max,
        @Nullable Double mean, double lastValue, int lastAttempt) {

    static MetricTagView of(ScalarStore.TagSummary summary) {
        return new MetricTagView(summary.tag(), summary.points(), summary.firstStep(), summary.lastStep(), summary.min(),
                summary.max(), summary.mean(), summary.lastValue(), summary.lastAttempt());
    }
}

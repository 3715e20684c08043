package io.trainyard.api.metrics;

import io.trainyard.scalars.ScalarStore;
import org.jspecify.annotations.Nullable;

/**
 * A tag of a job's scalars.
 *
 * @param points how many points it has, over all attempts and ranks
 * @param min the lowest value that is not NaN (null if all are NaN)
 * @param lastValue the value of its last stored point of {@code lastAttempt}
 */
public record MetricTagView(String tag, long points, long firstStep, long lastStep, @Nullable Double min, @Nullable Double max,
        double lastValue, int lastAttempt) {

    static MetricTagView of(ScalarStore.TagSummary summary) {
        return new MetricTagView(summary.tag(), summary.points(), summary.firstStep(), summary.lastStep(), summary.min(),
                summary.max(), summary.lastValue(), summary.lastAttempt());
    }
}

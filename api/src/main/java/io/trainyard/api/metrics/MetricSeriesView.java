package io.trainyard.api.metrics;

import java.util.List;

import io.trainyard.job.JobState;
import io.trainyard.scalars.ScalarPoint;
import org.jspecify.annotations.Nullable;

/**
 * One tag's points of one attempt, by step.
 *
 * @param totalPoints how many points the attempt has past {@code after}; more than {@code points} holds when
 *     downsampled
 * @param downsampled whether {@code points} is a min/max-per-bucket selection of them
 */
public record MetricSeriesView(String tag, @Nullable Integer attempt, long totalPoints, boolean downsampled,
        List<ScalarPoint> points, JobState jobState) {
}

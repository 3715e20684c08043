package io.trainyard.api.metrics;

import java.util.List;

import io.trainyard.scalars.ScalarPoint;

/** New points of one tag, as a {@code points} event of the metrics stream. */
public record MetricChunkView(String tag, int attempt, List<ScalarPoint> points) {
}

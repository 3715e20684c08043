package io.trainyard.scalars;

import java.util.ArrayList;
import java.util.List;

/**
 * Thins a series for a chart without hiding its extremes: the points are cut into {@code maxPoints / 2} runs of
 * consecutive points, and of each run its lowest and highest point are kept, in step order. A spike (a loss that
 * diverged for a few steps) stays visible however long the series, which averaging or striding would lose.
 */
public final class Downsampling {

    private Downsampling() {
    }

    /** The series itself if it has at most {@code maxPoints} points, else at most {@code maxPoints} of them. */
    public static List<ScalarPoint> minMax(List<ScalarPoint> points, int maxPoints) {
        if (points.size() <= maxPoints) {
            return points;
        }
        int buckets = Math.max(maxPoints / 2, 1);
        List<ScalarPoint> kept = new ArrayList<>(buckets * 2);
        for (int bucket = 0; bucket < buckets; bucket++) {
            int from = (int) ((long) points.size() * bucket / buckets);
            int to = (int) ((long) points.size() * (bucket + 1) / buckets);
            int lowest = from;
            int highest = from;
            for (int i = from + 1; i < to; i++) {
                double value = points.get(i).value();
                // NaN compares false both ways, so a NaN point is kept only when its run is all NaN.
                if (value < points.get(lowest).value() || Double.isNaN(points.get(lowest).value())) {
                    lowest = i;
                }
                if (value > points.get(highest).value() || Double.isNaN(points.get(highest).value())) {
                    highest = i;
                }
            }
            kept.add(points.get(Math.min(lowest, highest)));
            if (lowest != highest && maxPoints > 1) {
                kept.add(points.get(Math.max(lowest, highest)));
            }
        }
        return kept;
    }
}

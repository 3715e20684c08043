package io.trainyard.scalars;

import java.util.ArrayList;
import java.util.List;

/**
 * Thins a series for a chart without hiding its extremes: the points are cut into {@code maxPoints / 2} runs of
 * consecutive points (buckets), and of each bucket its lowest and highest point are kept, in step order. A spike
 * (a loss that diverged for a few steps) stays visible however long the series, which averaging or striding
 * would lose.
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
            ScalarPoint lowest = points.get(from);
            ScalarPoint highest = points.get(from);
            for (int i = from + 1; i < to; i++) {
                lowest = lower(lowest, points.get(i));
                highest = higher(highest, points.get(i));
            }
            keep(lowest, highest, kept);
        }
        return kept;
    }

    /**
     * The same from blocks of consecutive points ({@link PointPacking.Block}) in step order, when buckets are many
     * blocks long: a bucket is the blocks whose first point falls in its run, so its edges are a block's size from
     * exact.
     *
     * @param total the number of points the blocks hold
     */
    static List<ScalarPoint> minMaxOfBlocks(List<PointPacking.Block> blocks, long total, int maxPoints) {
        int buckets = Math.max(maxPoints / 2, 1);
        List<ScalarPoint> kept = new ArrayList<>(buckets * 2);
        long start = 0;
        int current = -1;
        ScalarPoint lowest = null;
        ScalarPoint highest = null;
        for (PointPacking.Block block : blocks) {
            int bucket = (int) (start * buckets / total);
            if (bucket != current) {
                if (lowest != null) {
                    keep(lowest, highest, kept);
                }
                current = bucket;
                lowest = block.lowest();
                highest = block.highest();
            } else {
                lowest = lower(lowest, block.lowest());
                highest = higher(highest, block.highest());
            }
            start += block.size();
        }
        if (lowest != null) {
            keep(lowest, highest, kept);
        }
        return kept;
    }

    // NaN compares false both ways, so a NaN point is kept only when its whole bucket is NaN.
    private static ScalarPoint lower(ScalarPoint kept, ScalarPoint candidate) {
        return candidate.value() < kept.value() || Double.isNaN(kept.value()) ? candidate : kept;
    }

    private static ScalarPoint higher(ScalarPoint kept, ScalarPoint candidate) {
        return candidate.value() > kept.value() || Double.isNaN(kept.value()) ? candidate : kept;
    }

    /** Adds a bucket's lowest and highest point in step order, once if they are one point. */
    private static void keep(ScalarPoint lowest, ScalarPoint highest, List<ScalarPoint> kept) {
        if (lowest == highest) {
            kept.add(lowest);
        } else if (lowest.step() <= highest.step()) {
            kept.add(lowest);
            kept.add(highest);
        } else {
            kept.add(highest);
            kept.add(lowest);
        }
    }
}

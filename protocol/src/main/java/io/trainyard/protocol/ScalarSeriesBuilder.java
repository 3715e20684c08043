package io.trainyard.protocol;

import java.util.Arrays;

/** Collects the points of one tag and rank into the parallel arrays of a {@link ScalarSeries}. */
public final class ScalarSeriesBuilder {

    private final String tag;
    private final int rank;
    private long[] steps = new long[64];
    private double[] wallTimes = new double[64];
    private double[] values = new double[64];
    private int size;

    public ScalarSeriesBuilder(String tag, int rank) {
        this.tag = tag;
        this.rank = rank;
    }

    public void add(long step, double wallTime, double value) {
        if (size == steps.length) {
            steps = Arrays.copyOf(steps, size * 2);
            wallTimes = Arrays.copyOf(wallTimes, size * 2);
            values = Arrays.copyOf(values, size * 2);
        }
        steps[size] = step;
        wallTimes[size] = wallTime;
        values[size] = value;
        size++;
    }

    public ScalarSeries build() {
        return new ScalarSeries(tag, rank, Arrays.copyOf(steps, size), Arrays.copyOf(wallTimes, size),
                Arrays.copyOf(values, size));
    }
}

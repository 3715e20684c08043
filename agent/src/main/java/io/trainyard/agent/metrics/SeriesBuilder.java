package io.trainyard.agent.metrics;

import java.util.Arrays;

import io.trainyard.protocol.ScalarSeries;
import io.trainyard.tfevents.Scalar;

/** Collects the points of one tag and rank into the parallel arrays of a {@link ScalarSeries}. */
final class SeriesBuilder {

    private final String tag;
    private final int rank;
    private long[] steps = new long[64];
    private double[] wallTimes = new double[64];
    private double[] values = new double[64];
    private int size;

    SeriesBuilder(String tag, int rank) {
        this.tag = tag;
        this.rank = rank;
    }

    void add(Scalar scalar) {
        if (size == steps.length) {
            steps = Arrays.copyOf(steps, size * 2);
            wallTimes = Arrays.copyOf(wallTimes, size * 2);
            values = Arrays.copyOf(values, size * 2);
        }
        steps[size] = scalar.step();
        wallTimes[size] = scalar.wallTime();
        values[size] = scalar.value();
        size++;
    }

    ScalarSeries build() {
        return new ScalarSeries(tag, rank, Arrays.copyOf(steps, size), Arrays.copyOf(wallTimes, size),
                Arrays.copyOf(values, size));
    }
}

package io.trainyard.scalars;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import io.trainyard.protocol.ScalarSeries;
import org.junit.jupiter.api.Test;

class DownsamplingTest {

    @Test
    void aShortSeriesIsKeptWhole() {
        List<ScalarPoint> points = series(10);

        assertThat(Downsampling.minMax(points, 10)).isSameAs(points);
    }

    @Test
    void aLongSeriesKeepsAtMostMaxPointsInStepOrderAndItsSpikes() {
        List<ScalarPoint> points = series(100_000);
        points.set(31_337, new ScalarPoint(31_337, 0, 1e9, 0));   // a loss spike
        points.set(77_001, new ScalarPoint(77_001, 0, -1e9, 0));  // and a dip

        List<ScalarPoint> kept = Downsampling.minMax(points, 1000);

        assertThat(kept).hasSizeLessThanOrEqualTo(1000).hasSizeGreaterThan(900);
        assertThat(kept).extracting(ScalarPoint::step).isSorted().doesNotHaveDuplicates();
        assertThat(kept).extracting(ScalarPoint::value).contains(1e9, -1e9);
    }

    @Test
    void nanValuesDoNotHideTheRealExtremes() {
        List<ScalarPoint> points = new ArrayList<>();
        for (int step = 0; step < 100; step++) {
            points.add(new ScalarPoint(step, 0, step == 50 ? 7 : (step == 10 ? 3 : Double.NaN), 0));
        }

        List<ScalarPoint> kept = Downsampling.minMax(points, 2);

        assertThat(kept).extracting(ScalarPoint::value).containsExactly(3.0, 7.0);
    }

    @Test
    void blocksOfALongSeriesKeepItsExtremesLikeItsPoints() {
        int size = 200_000;
        long[] steps = new long[size];
        double[] wallTimes = new double[size];
        double[] values = new double[size];
        for (int i = 0; i < size; i++) {
            steps[i] = i;
            wallTimes[i] = 1.7e9 + i;
            values[i] = i == 123_457 ? 1e9 : Math.sin(i / 100.0);
        }
        List<PointPacking.Block> blocks = new ArrayList<>();
        PointPacking.unpackBlocks(PointPacking.packBlocks(new ScalarSeries("loss", 0, steps, wallTimes, values)), 0, blocks);

        List<ScalarPoint> kept = Downsampling.minMaxOfBlocks(blocks, size, 1000);

        assertThat(kept).hasSizeLessThanOrEqualTo(1000).hasSizeGreaterThan(900);
        assertThat(kept).extracting(ScalarPoint::step).isSorted().doesNotHaveDuplicates();
        assertThat(kept).contains(new ScalarPoint(123_457, 1.7e9 + 123_457, 1e9, 0));
        assertThat(kept).extracting(ScalarPoint::value).anySatisfy(value -> assertThat(value).isLessThan(-0.999))
                .anySatisfy(value -> assertThat(value).isBetween(0.999, 1.0));
    }

    private static List<ScalarPoint> series(int size) {
        List<ScalarPoint> points = new ArrayList<>(size);
        for (int step = 0; step < size; step++) {
            points.add(new ScalarPoint(step, 1.7e9 + step, Math.sin(step / 100.0), 0));
        }
        return points;
    }
}

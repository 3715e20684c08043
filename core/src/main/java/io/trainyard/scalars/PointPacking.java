package io.trainyard.scalars;

import java.nio.ByteBuffer;
import java.util.List;

import io.trainyard.protocol.ScalarSeries;

/**
 * The packed forms of a chunk's points: {@code metric_chunks.points} holds per point int64 step, float64 wall
 * time, float64 value; {@code metric_chunks.blocks} holds per run of {@value #BLOCK_POINTS} points its lowest and
 * highest point and its size, so a long series is downsampled from a fiftieth of its bytes.
 */
final class PointPacking {

    static final int BYTES_PER_POINT = 24;
    static final int BLOCK_POINTS = 64;
    private static final int BYTES_PER_BLOCK = 2 * BYTES_PER_POINT + 4;

    /** A run of consecutive points: its lowest and highest (NaN only if all its values are) and its size. */
    record Block(ScalarPoint lowest, ScalarPoint highest, int size) {
    }

    private PointPacking() {
    }

    static byte[] pack(ScalarSeries series) {
        ByteBuffer buffer = ByteBuffer.allocate(series.size() * BYTES_PER_POINT);
        for (int i = 0; i < series.size(); i++) {
            buffer.putLong(series.steps()[i]).putDouble(series.wallTimes()[i]).putDouble(series.values()[i]);
        }
        return buffer.array();
    }

    /** Adds the packed points with a step above {@code afterStep} to {@code out}. */
    static void unpack(byte[] packed, int rank, long afterStep, List<ScalarPoint> out) {
        ByteBuffer buffer = ByteBuffer.wrap(packed);
        while (buffer.hasRemaining()) {
            long step = buffer.getLong();
            double wallTime = buffer.getDouble();
            double value = buffer.getDouble();
            if (step > afterStep) {
                out.add(new ScalarPoint(step, wallTime, value, rank));
            }
        }
    }

    static byte[] packBlocks(ScalarSeries series) {
        int blocks = (series.size() + BLOCK_POINTS - 1) / BLOCK_POINTS;
        ByteBuffer buffer = ByteBuffer.allocate(blocks * BYTES_PER_BLOCK);
        for (int from = 0; from < series.size(); from += BLOCK_POINTS) {
            int to = Math.min(from + BLOCK_POINTS, series.size());
            int lowest = from;
            int highest = from;
            for (int i = from + 1; i < to; i++) {
                double value = series.values()[i];
                if (value < series.values()[lowest] || Double.isNaN(series.values()[lowest])) {
                    lowest = i;
                }
                if (value > series.values()[highest] || Double.isNaN(series.values()[highest])) {
                    highest = i;
                }
            }
            for (int i : new int[] {lowest, highest}) {
                buffer.putLong(series.steps()[i]).putDouble(series.wallTimes()[i]).putDouble(series.values()[i]);
            }
            buffer.putInt(to - from);
        }
        return buffer.array();
    }

    static void unpackBlocks(byte[] packed, int rank, List<Block> out) {
        ByteBuffer buffer = ByteBuffer.wrap(packed);
        while (buffer.hasRemaining()) {
            ScalarPoint lowest = new ScalarPoint(buffer.getLong(), buffer.getDouble(), buffer.getDouble(), rank);
            ScalarPoint highest = new ScalarPoint(buffer.getLong(), buffer.getDouble(), buffer.getDouble(), rank);
            out.add(new Block(lowest, highest, buffer.getInt()));
        }
    }
}

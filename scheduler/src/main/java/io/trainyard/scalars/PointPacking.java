package io.trainyard.scalars;

import java.nio.ByteBuffer;
import java.util.List;

import io.trainyard.protocol.ScalarSeries;

/** The packed form of a chunk's points in {@code metric_chunks.points}: per point int64 step, float64 wall time, float64 value. */
final class PointPacking {

    static final int BYTES_PER_POINT = 24;

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
}

package io.trainyard.tfevents;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/** Builds event file bytes in tests: TFRecord framing around hand-encoded {@code Event} protobufs. */
final class EventRecords {

    private final ByteArrayOutputStream file = new ByteArrayOutputStream();

    /** Appends an event with one {@code simple_value}. */
    EventRecords scalar(String tag, long step, double wallTime, float value) {
        byte[] summaryValue = concat(stringField(1, tag), fixed32Field(2, Float.floatToIntBits(value)));
        return record(event(step, wallTime, summaryValue));
    }

    /** Appends an event without a summary (the file_version event every writer starts with). */
    EventRecords fileVersion(double wallTime) {
        return record(concat(fixed64Field(1, Double.doubleToLongBits(wallTime)), stringField(3, "brain.Event:2")));
    }

    /** Appends a TFRecord holding {@code data}. */
    EventRecords record(byte[] data) {
        ByteBuffer header = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
        header.putLong(data.length).putInt(maskedCrc(header.array(), 0, 8));
        file.writeBytes(header.array());
        file.writeBytes(data);
        file.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(maskedCrc(data, 0, data.length)).array());
        return this;
    }

    byte[] bytes() {
        return file.toByteArray();
    }

    static byte[] event(long step, double wallTime, byte[] summaryValue) {
        byte[] summary = delimited(1, summaryValue);
        return concat(fixed64Field(1, Double.doubleToLongBits(wallTime)), varintField(2, step), delimited(5, summary));
    }

    static int maskedCrc(byte[] bytes, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, offset, length);
        return EventFileReader.mask((int) crc.getValue());
    }

    static byte[] stringField(int field, String value) {
        return delimited(field, value.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] delimited(int field, byte[] value) {
        return concat(varint(field << 3 | 2), varint(value.length), value);
    }

    static byte[] varintField(int field, long value) {
        return concat(varint(field << 3), varint(value));
    }

    static byte[] fixed32Field(int field, int value) {
        return concat(varint(field << 3 | 5), ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(value).array());
    }

    static byte[] fixed64Field(int field, long value) {
        return concat(varint(field << 3 | 1), ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array());
    }

    static byte[] varint(long value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while ((value & ~0x7fL) != 0) {
            out.write((int) ((value & 0x7f) | 0x80));
            value >>>= 7;
        }
        out.write((int) value);
        return out.toByteArray();
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}

package io.trainyard.tfevents;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * Writes scalars as TensorBoard reads them: TFRecords of {@code Event}s with a {@code simple_value}, after the
 * {@code file_version} event every event file starts with. The server writes the scalars agents shipped into
 * such files for the TensorBoard it runs per job, so TensorBoard works for jobs whose files are on other hosts.
 */
public final class EventFileWriter implements AutoCloseable {

    private final OutputStream out;
    private final CRC32C crc = new CRC32C();
    private final ByteArrayOutputStream event = new ByteArrayOutputStream(128);
    private final byte[] frame = new byte[12];

    /** @param out a new, empty file: its first record is the file_version event */
    public EventFileWriter(OutputStream out, double wallTime) throws IOException {
        this.out = out;
        fixed64(1, Double.doubleToLongBits(wallTime));
        bytesField(3, "brain.Event:2".getBytes(StandardCharsets.UTF_8));
        writeRecord();
    }

    private EventFileWriter(OutputStream out) {
        this.out = out;
    }

    /** A writer that goes on with an event file this class started earlier. */
    public static EventFileWriter appending(OutputStream out) {
        return new EventFileWriter(out);
    }

    public void scalar(String tag, long step, double wallTime, double value) throws IOException {
        byte[] tagBytes = tag.getBytes(StandardCharsets.UTF_8);
        // Summary.Value { tag = 1; simple_value = 2 } inside Summary { value = 1 } inside Event { summary = 5 }.
        int valueLength = 1 + varintSize(tagBytes.length) + tagBytes.length + 1 + 4;
        int summaryLength = 1 + varintSize(valueLength) + valueLength;
        fixed64(1, Double.doubleToLongBits(wallTime));
        key(2, ProtoReader.VARINT);
        varint(step);
        key(5, ProtoReader.LENGTH_DELIMITED);
        varint(summaryLength);
        key(1, ProtoReader.LENGTH_DELIMITED);
        varint(valueLength);
        bytesField(1, tagBytes);
        key(2, ProtoReader.FIXED32);
        littleEndian(Float.floatToIntBits((float) value), 4);
        writeRecord();
    }

    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }

    private void writeRecord() throws IOException {
        byte[] data = event.toByteArray();
        event.reset();
        long length = data.length;
        for (int i = 0; i < 8; i++) {
            frame[i] = (byte) (length >>> (8 * i));
        }
        putInt(frame, 8, maskedCrc(frame, 8));
        out.write(frame, 0, 12);
        out.write(data);
        putInt(frame, 0, maskedCrc(data, data.length));
        out.write(frame, 0, 4);
    }

    private int maskedCrc(byte[] bytes, int length) {
        crc.reset();
        crc.update(bytes, 0, length);
        return EventFileReader.mask((int) crc.getValue());
    }

    private static void putInt(byte[] bytes, int at, int value) {
        for (int i = 0; i < 4; i++) {
            bytes[at + i] = (byte) (value >>> (8 * i));
        }
    }

    private void key(int field, int wireType) {
        varint((long) field << 3 | wireType);
    }

    private void fixed64(int field, long value) {
        key(field, ProtoReader.FIXED64);
        littleEndian(value, 8);
    }

    private void bytesField(int field, byte[] value) {
        key(field, ProtoReader.LENGTH_DELIMITED);
        varint(value.length);
        event.writeBytes(value);
    }

    private void littleEndian(long value, int bytes) {
        for (int i = 0; i < bytes; i++) {
            event.write((int) (value >>> (8 * i)));
        }
    }

    private void varint(long value) {
        while ((value & ~0x7fL) != 0) {
            event.write((int) ((value & 0x7f) | 0x80));
            value >>>= 7;
        }
        event.write((int) value);
    }

    private static int varintSize(long value) {
        int size = 1;
        while ((value & ~0x7fL) != 0) {
            size++;
            value >>>= 7;
        }
        return size;
    }
}

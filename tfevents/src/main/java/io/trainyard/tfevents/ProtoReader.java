package io.trainyard.tfevents;

import java.nio.charset.StandardCharsets;

/** Reads protobuf wire format (varints, fixed-width numbers, length-delimited fields) from a byte range. */
final class ProtoReader {

    static final int VARINT = 0;
    static final int FIXED64 = 1;
    static final int LENGTH_DELIMITED = 2;
    static final int FIXED32 = 5;

    private final byte[] bytes;
    private int position;
    private final int end;

    ProtoReader(byte[] bytes, int offset, int length) {
        this.bytes = bytes;
        this.position = offset;
        this.end = offset + length;
    }

    boolean hasMore() {
        return position < end;
    }

    /** The next field's key: its number shifted left by 3, or'ed with its wire type. */
    int readKey() throws MalformedEventException {
        return (int) readVarint();
    }

    long readVarint() throws MalformedEventException {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte b = next();
            value |= (long) (b & 0x7f) << shift;
            if (b >= 0) {
                return value;
            }
        }
        throw new MalformedEventException("varint longer than 10 bytes");
    }

    long readFixed64() throws MalformedEventException {
        require(8);
        long value = 0;
        for (int i = 7; i >= 0; i--) {
            value = (value << 8) | (bytes[position + i] & 0xffL);
        }
        position += 8;
        return value;
    }

    int readFixed32() throws MalformedEventException {
        require(4);
        int value = (bytes[position] & 0xff) | (bytes[position + 1] & 0xff) << 8
                | (bytes[position + 2] & 0xff) << 16 | (bytes[position + 3] & 0xff) << 24;
        position += 4;
        return value;
    }

    double readDouble() throws MalformedEventException {
        return Double.longBitsToDouble(readFixed64());
    }

    float readFloat() throws MalformedEventException {
        return Float.intBitsToFloat(readFixed32());
    }

    /** A reader of the next length-delimited field (a sub-message, a packed array, bytes), skipping past it. */
    ProtoReader readDelimited() throws MalformedEventException {
        long length = readVarint();
        if (length < 0 || length > end - position) {
            throw new MalformedEventException("field length " + length + " runs past its message");
        }
        ProtoReader field = new ProtoReader(bytes, position, (int) length);
        position += (int) length;
        return field;
    }

    String readString() throws MalformedEventException {
        ProtoReader field = readDelimited();
        return new String(bytes, field.position, field.end - field.position, StandardCharsets.UTF_8);
    }

    /** The bytes left in this reader's range, as (array, offset, length) for a caller that decodes them itself. */
    int remaining() {
        return end - position;
    }

    byte byteAt(int index) {
        return bytes[position + index];
    }

    void skip(int wireType) throws MalformedEventException {
        switch (wireType) {
            case VARINT -> readVarint();
            case FIXED64 -> skipBytes(8);
            case LENGTH_DELIMITED -> readDelimited();
            case FIXED32 -> skipBytes(4);
            default -> throw new MalformedEventException("unsupported wire type " + wireType);
        }
    }

    private void skipBytes(int count) throws MalformedEventException {
        require(count);
        position += count;
    }

    private byte next() throws MalformedEventException {
        require(1);
        return bytes[position++];
    }

    private void require(int count) throws MalformedEventException {
        if (end - position < count) {
            throw new MalformedEventException("message ends inside a field");
        }
    }
}

package io.trainyard.tfevents;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Reads the scalars of an event file from a byte offset, one TFRecord at a time:
 * <pre>uint64 length | uint32 masked_crc32c(length) | byte[length] data | uint32 masked_crc32c(data)</pre>
 * (all little-endian). A read stops at the end of the last complete record, so a file still being written is
 * followed by reading again from {@link Read#offsetAfter()}. Damage is skipped, never thrown: a record whose data
 * fails its checksum or is not an {@code Event} is skipped; a length that fails its checksum is skipped up to the
 * next offset where a valid record header starts; an incomplete record at the end of a file that is complete
 * (its writer is done) is skipped. Each skip is described in {@link Read#skipped()}.
 *
 * <p>Works on any {@link SeekableByteChannel}: a local file, or a {@code gs://} object through google-cloud-nio.
 * Reads go through a window of {@value #WINDOW_BYTES} bytes, so a remote object is fetched in large ranges.
 */
public final class EventFileReader {

    static final int HEADER_BYTES = 12;
    static final int FOOTER_BYTES = 4;
    private static final int WINDOW_BYTES = 1 << 20;
    /** No event of a scalar-writing trainer comes close; a larger length is taken for damage. */
    static final long MAX_RECORD_BYTES = 256L << 20;
    private static final int MASK_DELTA = 0xa282ead8;

    /**
     * What one read found.
     *
     * @param scalars the scalars of the records read, in file order
     * @param skipped a description of each damaged part skipped, with its offset
     * @param offsetAfter just past the last record read (or skipped): where the next read resumes
     */
    public record Read(List<Scalar> scalars, List<String> skipped, long offsetAfter) {
    }

    private final SeekableByteChannel channel;
    private final String name;
    private final CRC32C crc = new CRC32C();
    private byte[] window = new byte[0];
    private long windowStart;
    private int windowLength;

    private EventFileReader(SeekableByteChannel channel, String name) {
        this.channel = channel;
        this.name = name;
    }

    /**
     * Reads records from {@code offset} until at least {@code maxScalars} scalars are read or no complete record
     * is left.
     *
     * @param name the file's name in skip descriptions
     * @param complete the file's writer is done: an incomplete record at its end is damage, not a record whose
     *     rest is still to come
     */
    public static Read read(SeekableByteChannel channel, String name, long offset, int maxScalars, boolean complete)
            throws IOException {
        return new EventFileReader(channel, name).readFrom(offset, maxScalars, complete);
    }

    private Read readFrom(long offset, int maxScalars, boolean complete) throws IOException {
        List<Scalar> scalars = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        long size = channel.size();
        long position = offset;
        while (scalars.size() < maxScalars && position < size) {
            if (size - position < HEADER_BYTES) {
                position = skipTail(position, size, complete, skipped);
                break;
            }
            long length = recordLength(position);
            if (length < 0) {
                long next = nextValidHeader(position + 1, size);
                if (next < 0 && !complete) {
                    break; // a valid header may be among bytes still to be written
                }
                long resumeAt = next < 0 ? size : next;
                skipped.add(name + ": skipped " + (resumeAt - position) + " bytes at offset " + position
                        + " (a record length failed its checksum)");
                position = resumeAt;
                continue;
            }
            long recordEnd = position + HEADER_BYTES + length + FOOTER_BYTES;
            if (recordEnd > size) {
                position = skipTail(position, size, complete, skipped);
                break;
            }
            int dataAt = load(position + HEADER_BYTES, (int) length + FOOTER_BYTES);
            if (maskedCrc(window, dataAt, (int) length) != littleEndianInt(window, dataAt + (int) length)) {
                skipped.add(name + ": skipped the record at offset " + position + " (its data failed its checksum)");
            } else {
                try {
                    EventDecoder.decode(window, dataAt, (int) length, scalars);
                } catch (MalformedEventException e) {
                    skipped.add(name + ": skipped the record at offset " + position + " (not an event: " + e.getMessage() + ")");
                }
            }
            position = recordEnd;
        }
        return new Read(scalars, skipped, position);
    }

    /** The incomplete record at {@code position}: skipped (with a note) if the file is complete, else left for later. */
    private long skipTail(long position, long size, boolean complete, List<String> skipped) {
        if (!complete) {
            return position;
        }
        skipped.add(name + ": skipped " + (size - position) + " bytes at offset " + position
                + " (a record cut short at the end of the file)");
        return size;
    }

    /** The data length of the record whose header starts at {@code position}, or -1 if the header is damaged. */
    private long recordLength(long position) throws IOException {
        int at = load(position, HEADER_BYTES);
        long length = littleEndianLong(window, at);
        boolean valid = maskedCrc(window, at, 8) == littleEndianInt(window, at + 8);
        return valid && length >= 0 && length <= MAX_RECORD_BYTES ? length : -1;
    }

    /** The first offset from {@code from} where a header with a valid length checksum starts, or -1. */
    private long nextValidHeader(long from, long size) throws IOException {
        for (long candidate = from; candidate + HEADER_BYTES <= size; candidate++) {
            if (recordLength(candidate) >= 0) {
                return candidate;
            }
        }
        return -1;
    }

    /** Makes {@code length} bytes from file offset {@code position} available in the window; returns their index. */
    private int load(long position, int length) throws IOException {
        if (position >= windowStart && position + length <= windowStart + windowLength) {
            return (int) (position - windowStart);
        }
        int capacity = Math.max(length, WINDOW_BYTES);
        if (window.length < capacity) {
            window = new byte[capacity];
        }
        ByteBuffer buffer = ByteBuffer.wrap(window, 0, capacity);
        channel.position(position);
        while (buffer.position() < length) {
            if (channel.read(buffer) < 0) {
                throw new IOException(name + " is shorter than its size said (was it truncated while read?)");
            }
        }
        windowStart = position;
        windowLength = buffer.position();
        return 0;
    }

    private int maskedCrc(byte[] bytes, int offset, int length) {
        crc.reset();
        crc.update(bytes, offset, length);
        return mask((int) crc.getValue());
    }

    /** TFRecord's masking of a CRC32C, so that a checksum of data holding checksums stays well distributed. */
    static int mask(int crc) {
        return ((crc >>> 15) | (crc << 17)) + MASK_DELTA;
    }

    private static long littleEndianLong(byte[] bytes, int at) {
        long value = 0;
        for (int i = 7; i >= 0; i--) {
            value = (value << 8) | (bytes[at + i] & 0xffL);
        }
        return value;
    }

    private static int littleEndianInt(byte[] bytes, int at) {
        return (bytes[at] & 0xff) | (bytes[at + 1] & 0xff) << 8 | (bytes[at + 2] & 0xff) << 16 | (bytes[at + 3] & 0xff) << 24;
    }
}

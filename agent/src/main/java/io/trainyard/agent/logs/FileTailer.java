package io.trainyard.agent.logs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.trainyard.protocol.LineQueue;
import io.trainyard.protocol.LogStream;
import io.trainyard.protocol.OutputLine;

/**
 * Follows one output file of a trainer process, like {@code tail -f}, turning each line into a queued
 * {@link OutputLine} with the byte offset just past it (where reading resumes after a restart).
 * A line longer than {@value #MAX_LINE_BYTES} bytes is cut into several lines rather than held in memory.
 * When reading has fallen more than the log backlog behind the file (the server was away for long while the
 * trainer kept printing), the oldest unread part is skipped, with a marker line saying how much: the agent
 * never ships an unbounded backlog, and the whole output stays in the file.
 */
public final class FileTailer {

    static final int MAX_LINE_BYTES = 64 * 1024;
    private static final long IDLE_SLEEP_MILLIS = 10;

    private final Path file;
    private final String source;
    private final LogStream stream;
    private final int rank;
    private final LineSink sink;
    private final long maxBacklogBytes;
    private long offset;
    /** After a skip: the bytes up to the next newline are the rest of a line already skipped. */
    private boolean discardingToNewline;
    private byte[] partial = new byte[256];
    private int partialLength;
    private final List<LineQueue.Entry> batch = new ArrayList<>();
    /** When the current read happened (microseconds since the epoch): the time of every line it returned. */
    private long nowMicros;
    private volatile boolean draining;
    private Thread thread;

    public FileTailer(Path file, LogStream stream, int rank, long startOffset, LineSink sink, long maxBacklogBytes) {
        this.file = file;
        this.source = file.getFileName().toString();
        this.stream = stream;
        this.rank = rank;
        this.offset = startOffset;
        this.sink = sink;
        this.maxBacklogBytes = maxBacklogBytes;
    }

    public void start() {
        thread = Thread.ofVirtual().name("tail-" + source).start(this::run);
    }

    /** Reads what is left (the process has exited), including a last line without a newline, then stops. */
    public void finish() throws InterruptedException {
        draining = true;
        thread.join();
    }

    /** Stops without reading further: the server is shutting down and will resume from the stored offset. */
    public void abandon() {
        thread.interrupt();
    }

    private void run() {
        ByteBuffer buffer = ByteBuffer.allocate(256 * 1024);
        try {
            FileChannel channel = null;
            while (true) {
                if (channel == null) {
                    channel = open();
                }
                boolean finishing = draining;
                if (channel != null) {
                    skipIfTooFarBehind(channel);
                }
                int read = channel == null ? -1 : channel.read(buffer, offset + partialLength);
                if (read > 0) {
                    buffer.flip();
                    consume(buffer);
                    buffer.clear();
                    flushBatch();
                } else if (finishing) {
                    if (partialLength > 0) {
                        emit(partialLength, offset + partialLength);
                        flushBatch();
                    }
                    if (channel != null) {
                        channel.close();
                    }
                    return;
                } else {
                    Thread.sleep(IDLE_SLEEP_MILLIS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
    }

    private FileChannel open() throws IOException {
        try {
            return FileChannel.open(file, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /** Hands the lines of one read to the sink at once: one lock round trip per read, not per line. */
    private void flushBatch() throws InterruptedException {
        if (!batch.isEmpty()) {
            sink.addAll(List.copyOf(batch));
            batch.clear();
        }
    }

    private void skipIfTooFarBehind(FileChannel channel) throws IOException {
        long fileSize = channel.size();
        long readUpTo = offset + partialLength;
        if (fileSize - readUpTo <= maxBacklogBytes) {
            return;
        }
        long skipTo = fileSize - maxBacklogBytes;
        batch.add(new LineQueue.Entry(OutputLine.at(Instant.now(), LogStream.STDERR, rank, "[trainyard] skipped "
                + (skipTo - readUpTo) + " bytes of " + source + ": reading fell more than the agent's log backlog of "
                + maxBacklogBytes + " bytes behind (the server was unreachable); the whole output is in " + file),
                source, skipTo));
        offset = skipTo;
        partialLength = 0;
        // Unless the skip ends just after a newline, the first bytes kept are the tail of a skipped line.
        ByteBuffer before = ByteBuffer.allocate(1);
        discardingToNewline = channel.read(before, skipTo - 1) == 1 && before.get(0) != '\n';
    }

    private void consume(ByteBuffer bytes) {
        nowMicros = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
        while (bytes.hasRemaining()) {
            byte b = bytes.get();
            if (discardingToNewline) {
                offset++;
                discardingToNewline = b != '\n';
            } else if (b == '\n') {
                emit(partialLength, offset + partialLength + 1);
            } else {
                if (partialLength == partial.length) {
                    partial = Arrays.copyOf(partial, partial.length * 2);
                }
                partial[partialLength++] = b;
                if (partialLength == MAX_LINE_BYTES) {
                    emit(partialLength, offset + partialLength);
                }
            }
        }
    }

    /** Emits the first {@code length} partial bytes as a line; {@code newOffset} is just past them. */
    private void emit(int length, long newOffset) {
        int end = length > 0 && partial[length - 1] == '\r' ? length - 1 : length;
        String text = new String(partial, 0, end, StandardCharsets.UTF_8);
        batch.add(new LineQueue.Entry(new OutputLine(nowMicros, stream, rank, text), source, newOffset));
        offset = newOffset;
        partialLength = 0;
        if (partial.length > 64 * 1024) {
            partial = new byte[256];
        }
    }
}

package io.trainyard.backend.vertexai;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;

import com.google.cloud.ReadChannel;

/**
 * A Cloud Storage object as the read-only {@link SeekableByteChannel} the event file reader takes; its size is
 * the object's size when it was listed (a later part of a growing file is read at the next listing).
 */
final class BlobChannel implements SeekableByteChannel {

    private final ReadChannel reader;
    private final long size;
    private long position;

    BlobChannel(ReadChannel reader, long size) {
        this.reader = reader;
        this.size = size;
    }

    @Override
    public int read(ByteBuffer destination) throws IOException {
        if (position >= size) {
            return -1;
        }
        int read = reader.read(destination);
        if (read > 0) {
            position += read;
        }
        return read;
    }

    @Override
    public long position() {
        return position;
    }

    @Override
    public SeekableByteChannel position(long newPosition) throws IOException {
        reader.seek(newPosition);
        position = newPosition;
        return this;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public int write(ByteBuffer source) {
        throw new NonWritableChannelException();
    }

    @Override
    public SeekableByteChannel truncate(long newSize) {
        throw new NonWritableChannelException();
    }

    @Override
    public boolean isOpen() {
        return reader.isOpen();
    }

    @Override
    public void close() {
        reader.close();
    }
}

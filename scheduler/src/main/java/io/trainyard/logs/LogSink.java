package io.trainyard.logs;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The lines of one job attempt that the server reads itself (a Vertex AI job's Cloud Logging entries) on
 * their way to the {@link LogStore}; {@link LogWriter} stores them in chunks. A full buffer blocks the
 * reader, which is safe: the entries stay in Cloud Logging, so nothing is lost while the database is slow or
 * away. Agents ship their runs' lines themselves ({@link ShippedLogs}).
 */
public final class LogSink {

    static final int MAX_BUFFERED_LINES = 200_000;
    static final int MAX_LINES_PER_CHUNK = 8_000;

    private final UUID jobId;
    private final int attempt;
    private final ArrayDeque<PendingLine> buffer = new ArrayDeque<>();
    /** Held while a chunk is being stored, so the flusher thread and {@link LogWriter#close} never overlap. */
    final ReentrantLock flushLock = new ReentrantLock();
    private long nextSeq;
    private final LogQuota quota;
    /** Lines of this attempt taken so far, stored or buffered, the quota marker included. */
    private long accepted;

    LogSink(UUID jobId, int attempt, long nextSeq, LogQuota quota, long alreadyStored) {
        this.jobId = jobId;
        this.attempt = attempt;
        this.nextSeq = nextSeq;
        this.quota = quota;
        this.accepted = alreadyStored;
    }

    public UUID jobId() {
        return jobId;
    }

    public int attempt() {
        return attempt;
    }

    /** Queues lines, waiting while the buffer is full; past the attempt's {@link LogQuota} they are dropped. */
    public synchronized void addAll(List<PendingLine> lines) throws InterruptedException {
        while (buffer.size() >= MAX_BUFFERED_LINES) {
            wait();
        }
        List<PendingLine> admitted = quota.admit(accepted, lines);
        buffer.addAll(admitted);
        accepted += admitted.size();
    }

    synchronized boolean isEmpty() {
        return buffer.isEmpty();
    }

    /** A copy of the next lines to store; they stay queued until {@link #stored} confirms them. */
    synchronized List<PendingLine> peekChunk() {
        List<PendingLine> chunk = new ArrayList<>(Math.min(buffer.size(), MAX_LINES_PER_CHUNK));
        for (PendingLine line : buffer) {
            if (chunk.size() == MAX_LINES_PER_CHUNK) {
                break;
            }
            chunk.add(line);
        }
        return chunk;
    }

    synchronized long nextSeq() {
        return nextSeq;
    }

    synchronized void stored(int count) {
        for (int i = 0; i < count; i++) {
            buffer.removeFirst();
        }
        nextSeq += count;
        notifyAll();
    }
}

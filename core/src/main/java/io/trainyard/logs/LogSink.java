package io.trainyard.logs;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;

import io.trainyard.protocol.LineQueue;

/**
 * The lines of one job attempt that the server reads itself (a Vertex AI job's Cloud Logging entries) on
 * their way to the {@link LogStore}; {@link LogWriter} stores them a batch at a time. A full queue blocks the
 * reader, which is safe: the entries stay in Cloud Logging, so nothing is lost while the database is slow or
 * away. Agents ship their runs' lines themselves.
 */
public final class LogSink {

    private final UUID jobId;
    private final int attempt;
    final LineQueue queue = new LineQueue();
    /** Held while a batch is being stored, so the flusher thread and {@link LogWriter#close} never overlap. */
    final ReentrantLock flushLock = new ReentrantLock();

    LogSink(UUID jobId, int attempt) {
        this.jobId = jobId;
        this.attempt = attempt;
    }

    public UUID jobId() {
        return jobId;
    }

    public int attempt() {
        return attempt;
    }

    /** Queues lines, waiting while the queue is full; lines past the attempt's {@link LogQuota} are dropped. */
    public void addAll(List<LineQueue.Entry> lines) throws InterruptedException {
        queue.addAll(lines);
    }
}

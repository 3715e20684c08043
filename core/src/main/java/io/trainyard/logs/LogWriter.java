package io.trainyard.logs;

import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import io.trainyard.core.BackgroundLoop;
import io.trainyard.database.DatabaseFailures;
import io.trainyard.follow.JobWakeUps;
import io.trainyard.protocol.LineQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Stores the lines of every open {@link LogSink} in chunks, every {@value #FLUSH_INTERVAL_MILLIS} ms: one
 * row per chunk keeps up with a trainer printing hundreds of thousands of lines a second while a follower
 * still sees each line within a fraction of a second. A failed write keeps the lines and is tried again.
 */
@Component
public class LogWriter extends BackgroundLoop {

    private static final Logger log = LoggerFactory.getLogger(LogWriter.class);
    static final long FLUSH_INTERVAL_MILLIS = 25;

    private final LogStore store;
    private final JobWakeUps wakeUps;
    private final Set<LogSink> open = ConcurrentHashMap.newKeySet();

    public LogWriter(LogStore store, JobWakeUps wakeUps) {
        super("log-writer");
        this.store = store;
        this.wakeUps = wakeUps;
    }

    /** Opens the sink of a job attempt; its lines are numbered after the job's stored lines. */
    public LogSink open(UUID jobId, int attempt) {
        LogSink sink = new LogSink(jobId, attempt);
        open.add(sink);
        return sink;
    }

    /** Stores everything left in the sink, retrying until the database takes it, then closes the sink. */
    public void close(LogSink sink) throws InterruptedException {
        long backoff = 100;
        while (true) {
            try {
                while (!sink.queue.isEmpty()) {
                    flush(sink);
                }
                open.remove(sink);
                return;
            } catch (RuntimeException e) {
                if (!DatabaseFailures.isUnreachable(e)) {
                    log.warn("Could not store the last log lines of job {} yet: {}", sink.jobId(), e.toString());
                }
                Thread.sleep(backoff);
                backoff = Math.min(backoff * 2, 5_000);
            }
        }
    }

    /** Forgets a sink without storing its lines: for a run this server no longer owns. */
    public void abandon(LogSink sink) {
        open.remove(sink);
    }

    @Override
    public int getPhase() {
        // Started before and stopped after the backends that write to it.
        return SmartLifecycle.DEFAULT_PHASE - 1000;
    }

    @Override
    protected void step() throws InterruptedException {
        for (LogSink sink : open) {
            try {
                // A backlog is stored chunk after chunk, not one chunk per tick.
                while (flush(sink) == LineQueue.MAX_LINES_PER_BATCH) {
                    // keep going
                }
            } catch (RuntimeException e) {
                // The database being away is said once, by DatabaseConnectivity; the lines wait in the sink.
                if (!DatabaseFailures.isUnreachable(e)) {
                    log.warn("Storing log lines of job {} failed, will retry: {}", sink.jobId(), e.toString());
                }
            }
        }
        Thread.sleep(FLUSH_INTERVAL_MILLIS);
    }

    /** Stores the next batch of the sink; returns how many lines it held. */
    private int flush(LogSink sink) throws InterruptedException {
        LineQueue.Batch batch;
        sink.flushLock.lock();
        try {
            batch = sink.queue.nextBatch(0);
            if (batch.isEmpty()) {
                return 0;
            }
            LogStore.Appended appended = store.append(sink.jobId(), sink.attempt(), batch);
            sink.queue.remove(batch.lines().size());
            if (appended.quotaReached()) {
                sink.queue.dropAll();
            }
        } finally {
            sink.flushLock.unlock();
        }
        wakeUps.signal(sink.jobId());
        return batch.lines().size();
    }
}

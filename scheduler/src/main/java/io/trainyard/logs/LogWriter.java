package io.trainyard.logs;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.trainyard.BackgroundLoop;
import io.trainyard.TrainyardProperties;
import io.micrometer.core.instrument.MeterRegistry;
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
public class LogWriter implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(LogWriter.class);
    static final long FLUSH_INTERVAL_MILLIS = 25;

    private final LogStore store;
    private final LogQuota quota;
    private final LogFollowers followers;
    private final Counter linesIngested;
    private final Set<LogSink> open = ConcurrentHashMap.newKeySet();
    private final BackgroundLoop flusher = new BackgroundLoop("log-writer", this::flushAll);

    public LogWriter(LogStore store, LogFollowers followers, MeterRegistry registry, TrainyardProperties properties) {
        this.store = store;
        this.quota = new LogQuota(properties.maxLogLinesPerAttempt());
        this.followers = followers;
        this.linesIngested = Counter.builder("trainyard.logs.lines.ingested")
                .description("Log lines stored, from all jobs").register(registry);
    }

    /** Opens the sink of a job attempt; its numbering continues after the job's stored lines. */
    public LogSink open(UUID jobId, int attempt) {
        LogSink sink = new LogSink(jobId, attempt, store.lastSeq(jobId) + 1, quota,
                store.countLines(jobId, attempt));
        open.add(sink);
        return sink;
    }

    /** Stores everything left in the sink, retrying until the database takes it, then closes the sink. */
    public void close(LogSink sink) throws InterruptedException {
        long backoff = 100;
        while (true) {
            try {
                while (!sink.isEmpty()) {
                    flush(sink);
                }
                open.remove(sink);
                return;
            } catch (RuntimeException e) {
                log.warn("Could not store the last log lines of job {} yet: {}", sink.jobId(), e.toString());
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
    public void start() {
        flusher.start();
    }

    @Override
    public void stop() {
        flusher.stop();
    }

    @Override
    public boolean isRunning() {
        return flusher.isRunning();
    }

    @Override
    public int getPhase() {
        // Started before and stopped after the backends that write to it.
        return SmartLifecycle.DEFAULT_PHASE - 1000;
    }

    private void flushAll() throws InterruptedException {
        for (LogSink sink : open) {
            try {
                // A backlog is stored chunk after chunk, not one chunk per tick.
                while (flush(sink) == LogSink.MAX_LINES_PER_CHUNK) {
                    // keep going
                }
            } catch (RuntimeException e) {
                log.warn("Storing log lines of job {} failed, will retry: {}", sink.jobId(), e.toString());
            }
        }
        Thread.sleep(FLUSH_INTERVAL_MILLIS);
    }

    /** Stores the next chunk of the sink; returns how many lines it held. */
    private int flush(LogSink sink) {
        List<PendingLine> chunk;
        sink.flushLock.lock();
        try {
            chunk = sink.peekChunk();
            if (chunk.isEmpty()) {
                return 0;
            }
            Map<String, Long> positions = new HashMap<>();
            chunk.forEach(line -> positions.put(line.source(), line.offsetAfter()));
            store.append(sink.jobId(), sink.attempt(), sink.nextSeq(), chunk, positions);
            sink.stored(chunk.size());
            linesIngested.increment(chunk.size());
        } finally {
            sink.flushLock.unlock();
        }
        followers.signal(sink.jobId());
        return chunk.size();
    }
}

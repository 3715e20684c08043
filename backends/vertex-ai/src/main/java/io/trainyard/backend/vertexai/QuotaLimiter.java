package io.trainyard.backend.vertexai;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps this server's calls inside a per-region quota shared by all jobs: at most {@code permits} calls
 * arrive at the service in any span of {@code window}. A call counts from when it is allowed until
 * {@code window} after it completed: its arrival lies somewhere in between, so however threads are
 * scheduled, no window can see more arrivals than permits. Callers wait for a permit instead of being refused.
 */
final class QuotaLimiter {

    private final int permits;
    private final long windowNanos;
    private final Map<String, Region> regions = new ConcurrentHashMap<>();

    QuotaLimiter(int permits, Duration window) {
        if (permits < 1) {
            throw new IllegalArgumentException("a quota needs at least one permit per window, got " + permits);
        }
        this.permits = permits;
        this.windowNanos = window.toNanos();
    }

    /** A call being made; close it when the call has returned. */
    interface Permit extends AutoCloseable {
        @Override
        void close();
    }

    /** Waits until a call in {@code region} fits the quota. */
    Permit acquire(String region) throws InterruptedException {
        Region counts = regions.computeIfAbsent(region, key -> new Region());
        while (true) {
            long waitNanos;
            synchronized (counts) {
                long now = System.nanoTime();
                while (!counts.completed.isEmpty() && now - counts.completed.peekFirst() >= windowNanos) {
                    counts.completed.removeFirst();
                }
                if (counts.inFlight + counts.completed.size() < permits) {
                    counts.inFlight++;
                    return () -> counts.complete(System.nanoTime());
                }
                // Only a completion ages out; with every permit in flight, wait for one to return.
                waitNanos = counts.completed.isEmpty() ? 1_000_000 : counts.completed.peekFirst() + windowNanos - now;
            }
            Thread.sleep(Duration.ofNanos(Math.max(waitNanos, 1_000_000)));
        }
    }

    private static final class Region {
        private final ArrayDeque<Long> completed = new ArrayDeque<>();
        private int inFlight;

        synchronized void complete(long nanos) {
            inFlight--;
            completed.addLast(nanos);
        }
    }
}

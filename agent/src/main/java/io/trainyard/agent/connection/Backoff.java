package io.trainyard.agent.connection;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Waits between tries at the server: doubling from {@code first} up to {@code max}, each wait drawn at random
 * between half and all of it ("equal jitter"), so that the agents of a pool that lost the server together do
 * not all come back in the same millisecond when it returns.
 */
public final class Backoff {

    private final long firstMillis;
    private final long maxMillis;
    private long nextMillis;

    public Backoff(long firstMillis, long maxMillis) {
        this.firstMillis = firstMillis;
        this.maxMillis = maxMillis;
        this.nextMillis = firstMillis;
    }

    /** Sleeps for the next wait and doubles it. */
    public void pause() throws InterruptedException {
        long half = nextMillis / 2;
        Thread.sleep(half + ThreadLocalRandom.current().nextLong(half + 1));
        nextMillis = Math.min(nextMillis * 2, maxMillis);
    }

    /** After a success: the next failure waits the shortest time again. */
    public void reset() {
        nextMillis = firstMillis;
    }
}

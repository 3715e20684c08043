package io.trainyard.testing;

import java.time.Duration;

/** Waiting in tests for something another process does: polls a condition until it holds or time runs out. */
public final class Eventually {

    private static final long POLL_MILLIS = 50;

    private Eventually() {
    }

    /** A condition to poll; it may call the API (whose generated client throws checked exceptions). */
    @FunctionalInterface
    public interface Condition {
        boolean holds() throws Exception;
    }

    /** Polls until {@code condition} holds, failing after {@code timeout} or when checking it throws. */
    public static void await(String what, Condition condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!holds(what, condition)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + " did not happen in " + timeout);
            }
            pause();
        }
    }

    /** The pause between two polls. */
    static void pause() {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private static boolean holds(String what, Condition condition) {
        try {
            return condition.holds();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new AssertionError("checking whether " + what + " failed", e);
        }
    }
}

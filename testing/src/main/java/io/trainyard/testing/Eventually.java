package io.trainyard.testing;

import java.time.Duration;
import java.util.function.Predicate;

/** Waiting in tests for something another process does: polls until a condition holds or time runs out. */
public final class Eventually {

    private static final long POLL_MILLIS = 50;

    private Eventually() {
    }

    /** A reading to poll; it may call the API (whose generated client throws checked exceptions). */
    @FunctionalInterface
    public interface Reading<T> {
        T read() throws Exception;
    }

    /** A condition to poll; it may call the API. */
    @FunctionalInterface
    public interface Condition {
        boolean holds() throws Exception;
    }

    /** Polls until {@code condition} holds, failing after {@code timeout} or when checking it throws. */
    public static void await(String what, Condition condition, Duration timeout) {
        until(what, condition::holds, Boolean::booleanValue, timeout);
    }

    /**
     * Reads until the value satisfies {@code condition} and answers it, failing after {@code timeout} (with the
     * last value read) or when reading throws.
     */
    public static <T> T until(String what, Reading<T> reading, Predicate<T> condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        T value = read(what, reading);
        while (!condition.test(value)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + " did not happen in " + timeout + " (last read: " + value + ")");
            }
            pause();
            value = read(what, reading);
        }
        return value;
    }

    private static void pause() {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private static <T> T read(String what, Reading<T> reading) {
        try {
            return reading.read();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new AssertionError("checking whether " + what + " failed", e);
        }
    }
}

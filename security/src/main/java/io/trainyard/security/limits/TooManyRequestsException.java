package io.trainyard.security.limits;

import java.util.concurrent.TimeUnit;

/** A caller over one of its limits: HTTP 429, to try again after {@code retryAfterSeconds}. */
public class TooManyRequestsException extends RuntimeException {

    private final long retryAfterSeconds;

    public TooManyRequestsException(String message, long retryAfterSeconds) {
        super(message);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** Over a limit whose budget has room again in {@code nanos}: Retry-After is that, in whole seconds, at least 1. */
    static TooManyRequestsException retryAfterNanos(String message, long nanos) {
        return new TooManyRequestsException(message, Math.max(1, TimeUnit.NANOSECONDS.toSeconds(nanos + 999_999_999L)));
    }

    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}

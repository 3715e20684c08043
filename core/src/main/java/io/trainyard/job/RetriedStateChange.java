package io.trainyard.job;

import java.util.UUID;
import java.util.function.Supplier;

import io.trainyard.database.DatabaseFailures;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A backend's state change for a run that really exists (processes, a CustomJob): it must be recorded
 * eventually, so it is retried with a doubling backoff while the database is away.
 */
public final class RetriedStateChange {

    private static final Logger log = LoggerFactory.getLogger(RetriedStateChange.class);
    private static final long FIRST_BACKOFF_MILLIS = 200;
    private static final long MAX_BACKOFF_MILLIS = 10_000;

    private RetriedStateChange() {
    }

    /** @throws InterruptedException when the server shuts down before the change could be stored */
    public static <T> T untilStored(UUID jobId, Supplier<T> change) throws InterruptedException {
        long backoff = FIRST_BACKOFF_MILLIS;
        while (true) {
            try {
                return change.get();
            } catch (RuntimeException e) {
                if (!DatabaseFailures.isUnreachable(e)) {
                    log.warn("Could not record a state change of job {} yet: {}", jobId, e.toString());
                }
                Thread.sleep(backoff);
                backoff = Math.min(backoff * 2, MAX_BACKOFF_MILLIS);
            }
        }
    }
}

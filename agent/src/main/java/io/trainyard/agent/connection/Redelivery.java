package io.trainyard.agent.connection;

import java.io.IOException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports that must reach the server (what really happened to a run), sent again until it takes them: the server may be
 * restarting or its database away (503), and the run's facts must not be lost.
 */
public final class Redelivery {

    private static final Logger log = LoggerFactory.getLogger(Redelivery.class);
    private static final long FIRST_RETRY_DELAY_MILLIS = 100;
    private static final long MAX_RETRY_DELAY_MILLIS = 5_000;

    /** Something that must reach the server, sent once. */
    public interface Delivery<T> {
        T send() throws IOException, InterruptedException;
    }

    private Redelivery() {
    }

    /**
     * Sends until the server takes it, waiting longer after each failure (up to 5 s, with jitter).
     *
     * @throws StaleRunException if the server refuses it as stale: it will never be taken
     */
    public static <T> T untilDelivered(String what, Delivery<T> delivery) throws InterruptedException {
        Backoff backoff = new Backoff(FIRST_RETRY_DELAY_MILLIS, MAX_RETRY_DELAY_MILLIS);
        for (int failures = 1; ; failures++) {
            try {
                T delivered = delivery.send();
                if (failures > 2) {
                    log.info("Delivered {} after {} tries", what, failures);
                }
                return delivered;
            } catch (IOException e) {
                // One failure is routine (a pooled connection closed under it); a second means the server is
                // away: said once, then quiet until it is delivered.
                if (failures == 2) {
                    log.warn("Could not deliver {} yet; retrying with backoff: {}", what, e.toString());
                }
                backoff.pause();
            }
        }
    }
}

package io.trainyard.backend.vertexai;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * How far a job attempt's Cloud Logging entries have been stored: the timestamp (in microseconds, Cloud
 * Logging's precision) of the last stored entry and how many entries of that microsecond were stored.
 * Entries are read in (timestamp, insertId) order, so resuming at that microsecond and skipping that many
 * neither repeats nor loses one. It is stored as one number with the log chunk that holds the entries,
 * like a file offset: the microseconds shifted left by {@value #COUNT_BITS} bits, plus the count.
 */
record CloudLogCursor(long epochMicros, int storedAtThatMicro) {

    static final String SOURCE = "cloud-logging";
    private static final int COUNT_BITS = 12;
    private static final int MAX_COUNT = (1 << COUNT_BITS) - 1;

    static final CloudLogCursor START = new CloudLogCursor(0, 0);

    static CloudLogCursor unpack(long packed) {
        return new CloudLogCursor(packed >>> COUNT_BITS, (int) (packed & MAX_COUNT));
    }

    long packed() {
        return (epochMicros << COUNT_BITS) | storedAtThatMicro;
    }

    Instant instant() {
        return Instant.EPOCH.plus(epochMicros, ChronoUnit.MICROS);
    }

    /** The cursor after storing an entry with this timestamp. */
    CloudLogCursor after(long entryMicros) {
        if (entryMicros == epochMicros) {
            // More than 4,095 entries in one microsecond cannot come from one job's replicas.
            return new CloudLogCursor(epochMicros, Math.min(storedAtThatMicro + 1, MAX_COUNT));
        }
        return new CloudLogCursor(entryMicros, 1);
    }
}

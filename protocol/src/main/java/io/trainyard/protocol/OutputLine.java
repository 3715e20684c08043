package io.trainyard.protocol;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * A line of a trainer's output: the one shape a log line has from the agent that reads it (or the server's
 * Cloud Logging reader) to the log store, which numbers it.
 *
 * @param timeMicros when it was read, in microseconds since the epoch: a number, because parsing a
 *     timestamp string per line was a measurable share of the cost of shipping a million lines
 * @param rank the trainer process (torch.distributed rank) that printed it
 */
public record OutputLine(long timeMicros, LogStream stream, int rank, String text) {

    public static OutputLine at(Instant time, LogStream stream, int rank, String text) {
        return new OutputLine(ChronoUnit.MICROS.between(Instant.EPOCH, time), stream, rank, text);
    }

    public Instant time() {
        return Instant.EPOCH.plus(timeMicros, ChronoUnit.MICROS);
    }
}

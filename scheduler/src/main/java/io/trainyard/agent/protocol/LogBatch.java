package io.trainyard.agent.protocol;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import io.trainyard.logs.LogStream;

/**
 * The next lines of a run's log.
 *
 * @param batch numbered 1, 2, … per attempt; a batch is resent until acknowledged, and one whose number was
 *     stored already is acknowledged without being stored again
 * @param positions for each output file the lines came from, the byte offset just past the last of them
 */
public record LogBatch(long epoch, long batch, List<Line> lines, Map<String, Long> positions) {

    /**
     * A line as read by the agent.
     *
     * @param timeMicros when it was read, in microseconds since the epoch: a number, because parsing a
     *     timestamp string per line was a measurable share of the cost of shipping a million lines
     */
    public record Line(long timeMicros, LogStream stream, int rank, String text) {

        public Line(Instant time, LogStream stream, int rank, String text) {
            this(ChronoUnit.MICROS.between(Instant.EPOCH, time), stream, rank, text);
        }

        public Instant time() {
            return Instant.EPOCH.plus(timeMicros, ChronoUnit.MICROS);
        }
    }
}

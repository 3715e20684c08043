package io.trainyard.api.logs;

import java.time.Instant;

import io.trainyard.logs.LogLine;

/** A log line as the API shows it. */
public record LogLineView(long seq, int attempt, Instant time, String stream, int rank, String text) {

    static LogLineView of(LogLine line) {
        return new LogLineView(line.seq(), line.attempt(), line.time(), line.stream().wireName(), line.rank(), line.text());
    }
}

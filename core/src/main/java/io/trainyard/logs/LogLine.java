package io.trainyard.logs;

import java.time.Instant;

import io.trainyard.protocol.LogStream;
import org.jspecify.annotations.NullMarked;

/**
 * A stored log line, and the JSON object the API serves for it. {@code seq} numbers a job's lines from 1
 * across all its attempts, so a follower can resume after any line it has seen.
 */
@NullMarked
public record LogLine(long seq, int attempt, Instant time, LogStream stream, int rank, String text) {
}

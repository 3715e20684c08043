package io.trainyard.logs;

import java.time.Instant;

/**
 * A line read from a process but not stored yet.
 *
 * @param source the file it was read from (e.g. {@code rank-0.stdout})
 * @param offsetAfter the byte offset in that file just past this line: where reading resumes after a
 *     restart once this line is stored
 */
public record PendingLine(Instant time, LogStream stream, int rank, String text, String source, long offsetAfter) {
}

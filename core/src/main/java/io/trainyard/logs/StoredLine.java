package io.trainyard.logs;

/** A stored line as its JSON text (a {@link LogLine}), ready to send without decoding it. */
public record StoredLine(long seq, String json) {
}

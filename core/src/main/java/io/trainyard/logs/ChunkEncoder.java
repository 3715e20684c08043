package io.trainyard.logs;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;

import io.trainyard.protocol.OutputLine;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.io.JsonStringEncoder;

/**
 * Writes a chunk's lines in the form the API serves them: each a {@link LogLine} JSON object, one a line. Written
 * field by field into one {@link StringBuilder}, with Jackson's {@link JsonStringEncoder} quoting the two free texts
 * (the line and its host), not by binding a {@code LogLine} per line, nor through a {@code JsonGenerator}: while a job
 * printed a burst, the binding was 22 % of the server's CPU (JFR), most of it formatting each line's time, and the
 * generator later 19 %, most of it checking each character of the time and the stream name for escapes, which
 * neither ever needs. A chunk's lines mostly share their second, so the time is formatted to the second once per
 * second and only its fraction per line. The text is the same, byte for byte, as Jackson's for a {@code LogLine}
 * (ChunkEncoderTest).
 */
final class ChunkEncoder {

    private static final JsonStringEncoder QUOTER = JsonStringEncoder.getInstance();
    private static final long MICROS_PER_SECOND = 1_000_000;

    private long second = Long.MIN_VALUE;
    /** {@link #second} as ISO-8601 up to its seconds, e.g. {@code 2026-11-28T01:12:33}. */
    private String secondText;

    /** The lines numbered from {@code firstSeq}, as newline-separated JSON objects; {@code host}: see {@link LogLine#host()}. */
    String encode(long firstSeq, int attempt, @Nullable String host, List<OutputLine> lines) {
        StringBuilder out = new StringBuilder(lines.size() * 112);
        long seq = firstSeq;
        for (OutputLine line : lines) {
            if (seq != firstSeq) {
                out.append('\n');
            }
            out.append("{\"seq\":").append(seq++).append(",\"attempt\":").append(attempt).append(",\"time\":\"");
            appendTime(line.timeMicros(), out);
            out.append("\",\"stream\":\"").append(line.stream().wireName()).append("\",\"rank\":").append(line.rank());
            if (host != null) {
                out.append(",\"host\":\"");
                QUOTER.quoteAsString(host, out);
                out.append('"');
            }
            out.append(",\"text\":\"");
            QUOTER.quoteAsString(line.text(), out);
            out.append("\"}");
        }
        return out.toString();
    }

    /** As {@link DateTimeFormatter#ISO_INSTANT} writes it: the fraction in groups of three digits, none if zero. */
    private void appendTime(long micros, StringBuilder out) {
        long epochSecond = Math.floorDiv(micros, MICROS_PER_SECOND);
        int fraction = (int) Math.floorMod(micros, MICROS_PER_SECOND);
        if (epochSecond != second) {
            String text = DateTimeFormatter.ISO_INSTANT.format(Instant.ofEpochSecond(epochSecond));
            second = epochSecond;
            secondText = text.substring(0, text.length() - 1);
        }
        out.append(secondText);
        if (fraction != 0) {
            // Milliseconds or microseconds with their leading zeros: the digits of 1000 + ms or 1,000,000 + µs,
            // less the leading 1.
            String digits = Integer.toString(fraction % 1000 == 0 ? 1000 + fraction / 1000 : 1_000_000 + fraction);
            out.append('.').append(digits, 1, digits.length());
        }
        out.append('Z');
    }
}

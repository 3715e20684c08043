package io.trainyard.logs;

import java.io.StringWriter;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;

import io.trainyard.protocol.OutputLine;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.SerializableString;
import tools.jackson.core.io.SerializedString;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a chunk's lines in the form the API serves them: each a {@link LogLine} JSON object, one a line. Written with
 * Jackson's streaming generator, not by binding a {@code LogLine} per line: while a job printed a burst, that binding
 * was the largest share of the server's CPU (22 % of JFR's samples), most of it formatting each line's time. A
 * chunk's lines mostly share their second, so the time is formatted to the second once per second and only its
 * fraction per line. The text is the same, byte for byte, as Jackson's for a {@code LogLine} (ChunkEncoderTest).
 */
final class ChunkEncoder {

    private static final ObjectWriter LINES = JsonMapper.builder().build().writer().withRootValueSeparator("\n");
    private static final SerializableString SEQ = new SerializedString("seq");
    private static final SerializableString ATTEMPT = new SerializedString("attempt");
    private static final SerializableString TIME = new SerializedString("time");
    private static final SerializableString STREAM = new SerializedString("stream");
    private static final SerializableString RANK = new SerializedString("rank");
    private static final SerializableString HOST = new SerializedString("host");
    private static final SerializableString TEXT = new SerializedString("text");
    private static final long MICROS_PER_SECOND = 1_000_000;

    private long second = Long.MIN_VALUE;
    /** {@link #second} as ISO-8601 up to its seconds, e.g. {@code 2026-11-28T01:12:33}. */
    private String secondText;

    /** The lines numbered from {@code firstSeq}, as newline-separated JSON objects; {@code host}: see {@link LogLine#host()}. */
    String encode(long firstSeq, int attempt, @Nullable String host, List<OutputLine> lines) {
        StringWriter out = new StringWriter(lines.size() * 112);
        try (JsonGenerator generator = LINES.createGenerator(out)) {
            long seq = firstSeq;
            for (OutputLine line : lines) {
                generator.writeStartObject();
                generator.writeName(SEQ);
                generator.writeNumber(seq++);
                generator.writeName(ATTEMPT);
                generator.writeNumber(attempt);
                generator.writeName(TIME);
                generator.writeString(time(line.timeMicros()));
                generator.writeName(STREAM);
                generator.writeString(line.stream().wireName());
                generator.writeName(RANK);
                generator.writeNumber(line.rank());
                if (host != null) {
                    generator.writeName(HOST);
                    generator.writeString(host);
                }
                generator.writeName(TEXT);
                generator.writeString(line.text());
                generator.writeEndObject();
            }
        }
        return out.toString();
    }

    /** As {@link DateTimeFormatter#ISO_INSTANT} writes it: the fraction in groups of three digits, none if zero. */
    String time(long micros) {
        long epochSecond = Math.floorDiv(micros, MICROS_PER_SECOND);
        int fraction = (int) Math.floorMod(micros, MICROS_PER_SECOND);
        if (epochSecond != second) {
            String text = DateTimeFormatter.ISO_INSTANT.format(Instant.ofEpochSecond(epochSecond));
            second = epochSecond;
            secondText = text.substring(0, text.length() - 1);
        }
        if (fraction == 0) {
            return secondText + "Z";
        }
        StringBuilder time = new StringBuilder(secondText.length() + 8).append(secondText).append('.');
        String digits = Integer.toString(fraction + 1_000_000).substring(1);
        time.append(digits, 0, fraction % 1000 == 0 ? 3 : 6);
        return time.append('Z').toString();
    }
}

package io.trainyard.logs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

import io.trainyard.protocol.LogStream;
import io.trainyard.protocol.OutputLine;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class ChunkEncoderTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void linesAreWrittenExactlyAsJacksonWritesTheirLogLines() {
        SplittableRandom random = new SplittableRandom(7);
        long now = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.parse("2026-11-28T01:12:33Z"));
        List<OutputLine> lines = new ArrayList<>();
        // Whole seconds, whole milliseconds and microseconds (ISO-8601 writes 0, 3 or 6 digits), across second,
        // day and year boundaries, before 1970 too; texts with quotes, escapes, control characters and non-ASCII.
        List<Long> times = new ArrayList<>(List.of(now, now + 1, now + 1_000, now + 999_999, now + 120_000, now + 1_000_000,
                ChronoUnit.MICROS.between(Instant.EPOCH, Instant.parse("2026-12-31T23:59:59.999999Z")), 0L, -1L, -1_500_000L));
        for (int i = 0; i < 200; i++) {
            times.add(now + random.nextLong(0, 5_000_000));
        }
        String[] texts = {"plain", "", "with \"quotes\" and \\ backslash", "tab\tand\u0001control", "héllo wörld ✓ 🚀",
            "</script><b>", "x".repeat(3000)};
        for (int i = 0; i < times.size(); i++) {
            lines.add(new OutputLine(times.get(i), i % 3 == 0 ? LogStream.STDERR : LogStream.STDOUT, i % 5, texts[i % texts.length]));
        }

        // Lines of a job on one host have no host; those of a job spanning hosts name theirs.
        for (String host : Arrays.asList(null, "gpu-07")) {
            String encoded = new ChunkEncoder().encode(41, 3, host, lines);

            long[] seq = {41};
            String expected = lines.stream()
                    .map(line -> JSON.writeValueAsString(new LogLine(seq[0]++, 3, line.time(), line.stream(), line.rank(), host,
                            line.text())))
                    .collect(Collectors.joining("\n"));
            assertThat(encoded).isEqualTo(expected);
        }
    }
}

package io.trainyard.agent.logs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import io.trainyard.protocol.LineQueue;
import io.trainyard.protocol.LogStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileTailerTest {

    @TempDir
    Path folder;

    private final List<LineQueue.Entry> received = new ArrayList<>();
    private final LineSink sink = lines -> {
        synchronized (received) {
            received.addAll(lines);
        }
    };

    @Test
    void readsEveryLineWithTheOffsetJustPastItAndTheLastLineWithoutANewline() throws Exception {
        Path file = folder.resolve("rank-0.stdout");
        Files.writeString(file, "first\r\nsecond\nlast");

        tail(file, 0, 1 << 20);

        assertThat(received).extracting(entry -> entry.line().text()).containsExactly("first", "second", "last");
        assertThat(received).extracting(LineQueue.Entry::positionAfter).containsExactly(7L, 14L, 18L);
    }

    @Test
    void farBehindItSkipsTheOldestOutputWithAMarkerAndKeepsTheNewestWholeLines() throws Exception {
        Path file = folder.resolve("rank-0.stdout");
        // 300 lines of 10 bytes: "line 0001\n" ...
        Files.writeString(file, String.join("", IntStream.rangeClosed(1, 300).mapToObj("line %04d\n"::formatted).toList()));

        tail(file, 0, 105);

        assertThat(received.getFirst().line().text()).startsWith("[trainyard] skipped 2895 bytes of rank-0.stdout");
        assertThat(received.getFirst().line().stream()).isEqualTo(LogStream.STDERR);
        // 105 bytes from the end start inside line 290: its rest is dropped, the 10 after it are whole.
        assertThat(received.subList(1, received.size())).extracting(entry -> entry.line().text())
                .containsExactlyElementsOf(IntStream.rangeClosed(291, 300).mapToObj("line %04d"::formatted).toList());
        assertThat(received.getLast().positionAfter()).isEqualTo(3000);
    }

    @Test
    void aSkipThatEndsOnALineBoundaryKeepsTheLineAfterIt() throws Exception {
        Path file = folder.resolve("rank-0.stderr");
        Files.writeString(file, String.join("", IntStream.rangeClosed(1, 300).mapToObj("line %04d\n"::formatted).toList()));

        tail(file, 0, 100);

        assertThat(received.subList(1, received.size())).extracting(entry -> entry.line().text())
                .containsExactlyElementsOf(IntStream.rangeClosed(291, 300).mapToObj("line %04d"::formatted).toList());
    }

    private void tail(Path file, long startOffset, long maxBacklogBytes) throws InterruptedException {
        FileTailer tailer = new FileTailer(file, LogStream.STDOUT, 0, startOffset, sink, maxBacklogBytes);
        tailer.start();
        tailer.finish();
    }
}

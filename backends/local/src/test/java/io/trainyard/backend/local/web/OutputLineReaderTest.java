package io.trainyard.backend.local.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import io.trainyard.protocol.LogBatch;
import io.trainyard.protocol.LogStream;
import io.trainyard.protocol.OutputLine;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;

class OutputLineReaderTest {

    /** What the agent writes with: Jackson's binding of the records. */
    private static final JsonMapper AGENT = JsonMapper.builder().build();
    private static final JsonMapper SERVER = JsonMapper.builder()
            .addModule(new SimpleModule().addDeserializer(OutputLine.class, new OutputLineReader())).build();

    @Test
    void readsWhatTheAgentWrites() {
        LogBatch shipped = new LogBatch(3, 7, List.of(
                new OutputLine(1_764_000_000_123_456L, LogStream.STDOUT, 0, "plain"),
                new OutputLine(-1, LogStream.STDERR, 12, "with \"quotes\", \\, a tab\tand ✓ 🚀"),
                new OutputLine(0, LogStream.STDOUT, Integer.MAX_VALUE, "")),
                Map.of("rank-0.stdout", 120L));

        assertThat(SERVER.readValue(AGENT.writeValueAsString(shipped), LogBatch.class)).isEqualTo(shipped);
    }

    @Test
    void skipsUnknownFieldsInAnyOrder() {
        OutputLine line = SERVER.readValue("""
                {"text": "hi", "future": {"nested": [1, 2]}, "rank": 2, "stream": "stderr", "timeMicros": 5}""", OutputLine.class);

        assertThat(line).isEqualTo(new OutputLine(5, LogStream.STDERR, 2, "hi"));
    }

    @Test
    void refusesALineWithoutItsTextOrStreamOrWithFieldsOfTheWrongType() {
        for (String json : List.of("""
                {"timeMicros": 5, "stream": "stdout", "rank": 0}""", """
                {"timeMicros": 5, "rank": 0, "text": "hi"}""", """
                {"timeMicros": 5, "stream": "stdin", "rank": 0, "text": "hi"}""", """
                {"timeMicros": "5", "stream": "stdout", "rank": 0, "text": "hi"}""", """
                {"timeMicros": 5, "stream": "stdout", "rank": 0.5, "text": "hi"}""", """
                {"timeMicros": 5, "stream": "stdout", "rank": 0, "text": 7}""", """
                ["stdout", "hi"]""")) {
            assertThatThrownBy(() -> SERVER.readValue(json, OutputLine.class)).as(json).isInstanceOf(MismatchedInputException.class);
        }
    }
}

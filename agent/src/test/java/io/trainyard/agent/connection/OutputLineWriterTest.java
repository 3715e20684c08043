package io.trainyard.agent.connection;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import io.trainyard.protocol.LogBatch;
import io.trainyard.protocol.LogStream;
import io.trainyard.protocol.OutputLine;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;

class OutputLineWriterTest {

    @Test
    void writesWhatJacksonsBindingOfTheRecordWrites() {
        LogBatch batch = new LogBatch(3, 7, List.of(
                new OutputLine(1_764_000_000_123_456L, LogStream.STDOUT, 0, "plain"),
                new OutputLine(-1, LogStream.STDERR, 12, "with \"quotes\", \\, a tab\tand ✓ 🚀"),
                new OutputLine(0, LogStream.STDOUT, Integer.MAX_VALUE, "")),
                Map.of("rank-0.stdout", 120L));
        JsonMapper written = JsonMapper.builder()
                .addModule(new SimpleModule().addSerializer(OutputLine.class, new OutputLineWriter())).build();

        assertThat(written.writeValueAsString(batch)).isEqualTo(JsonMapper.builder().build().writeValueAsString(batch));
    }
}

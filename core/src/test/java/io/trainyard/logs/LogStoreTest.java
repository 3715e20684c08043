package io.trainyard.logs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.trainyard.TrainyardTestApplication;
import io.trainyard.job.JobTransitions;
import io.trainyard.job.TestJobs;
import io.trainyard.protocol.LineQueue;
import io.trainyard.protocol.LogStream;
import io.trainyard.protocol.OutputLine;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** Chunks are stored compressed, and a job's log reads whole whether its chunks were stored so or as text before V19. */
@SpringBootTest(classes = TrainyardTestApplication.class, properties = "trainyard.dispatcher.enabled=false")
class LogStoreTest {

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TrainyardTestApplication.database(registry);
    }

    @Autowired
    LogStore logStore;
    @Autowired
    JobTransitions transitions;
    @Autowired
    JdbcTemplate jdbc;

    @Test
    void aLogReadsTheSameFromChunksStoredAsTextAndChunksStoredCompressed() {
        UUID jobId = transitions.createAll(List.of(TestJobs.job("log-store", "log-store", 1, 1))).getFirst().getId();
        // Stored before migration V19: the lines' text as it is.
        jdbc.update("insert into log_chunks (job_id, first_seq, last_seq, attempt, line_count, lines) values (?, 1, 2, 1, 2, ?)",
                jobId, """
                {"seq":1,"attempt":1,"time":"2026-11-29T10:00:00Z","stream":"stdout","rank":0,"text":"stored as text"}
                {"seq":2,"attempt":1,"time":"2026-11-29T10:00:01Z","stream":"stderr","rank":1,"text":"its second line"}""");
        String wide = "héllo wörld ✓ 🚀 日本語";
        long now = Instant.parse("2026-11-29T10:00:02Z").toEpochMilli() * 1_000;
        logStore.append(jobId, 1, new LineQueue.Batch(List.of(
                new OutputLine(now, LogStream.STDOUT, 0, wide),
                new OutputLine(now + 1_000, LogStream.STDOUT, 0, "the same line, again and again ".repeat(100))),
                Map.of("rank-0.stdout", 4_096L)));

        assertThat(logStore.read(jobId, 0, 10)).extracting(LogLine::seq, LogLine::text).containsExactly(
                tuple(1L, "stored as text"),
                tuple(2L, "its second line"),
                tuple(3L, wide),
                tuple(4L, "the same line, again and again ".repeat(100)));
        assertThat(logStore.readStored(jobId, 2, 1)).extracting(StoredLine::seq).containsExactly(3L);
        assertThat(logStore.readPositions(jobId, 1)).containsExactly(Map.entry("rank-0.stdout", 4_096L));
        // The new chunk holds no text, only its bytes compressed: fewer than the text's.
        Map<String, Object> stored = jdbc.queryForMap(
                "select lines, octet_length(lines_lz4) as compressed, lines_bytes from log_chunks where job_id = ? and first_seq = 3", jobId);
        assertThat(stored.get("lines")).isNull();
        assertThat((Integer) stored.get("compressed")).isLessThan((Integer) stored.get("lines_bytes") / 4);
    }
}

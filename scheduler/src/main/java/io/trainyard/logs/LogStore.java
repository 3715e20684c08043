package io.trainyard.logs;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Durable log storage in chunks (one row per flush, lines as a compact JSON array), with the read
 * positions of the files they came from stored in the same transaction so a restarted server resumes
 * reading exactly after the last stored line.
 */
@Repository
public class LogStore {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final JdbcClient jdbc;
    private final TransactionTemplate transaction;

    public LogStore(JdbcClient jdbc, PlatformTransactionManager transactionManager) {
        this.jdbc = jdbc;
        this.transaction = new TransactionTemplate(transactionManager);
    }

    /** The highest sequence number stored for the job, 0 if none. */
    public long lastSeq(UUID jobId) {
        return jdbc.sql("select coalesce(max(last_seq), 0) from log_chunks where job_id = ?")
                .param(jobId).query(Long.class).single();
    }

    /** Stores lines numbered from {@code firstSeq} and the file positions just past them, atomically. */
    public void append(UUID jobId, int attempt, long firstSeq, List<PendingLine> lines) {
        ArrayNode encoded = JsonNodeFactory.instance.arrayNode(lines.size());
        Map<String, Long> positions = new HashMap<>();
        for (PendingLine line : lines) {
            encoded.addArray()
                    .add(ChronoUnit.MICROS.between(Instant.EPOCH, line.time()))
                    .add(line.stream().wireName())
                    .add(line.rank())
                    .add(line.text());
            positions.put(line.source(), line.offsetAfter());
        }
        transaction.executeWithoutResult(status -> {
            jdbc.sql("""
                    insert into log_chunks (job_id, first_seq, last_seq, attempt, line_count, lines)
                    values (?, ?, ?, ?, ?, ?)""")
                    .params(jobId, firstSeq, firstSeq + lines.size() - 1, attempt, lines.size(), JSON.writeValueAsString(encoded))
                    .update();
            positions.forEach((source, offset) -> jdbc.sql("""
                    insert into log_read_positions (job_id, attempt, source, byte_offset) values (?, ?, ?, ?)
                    on conflict (job_id, attempt, source) do update set byte_offset = excluded.byte_offset""")
                    .params(jobId, attempt, source, offset)
                    .update());
        });
    }

    /** Up to {@code limit} lines with a sequence number above {@code afterSeq}, in order. */
    public List<LogLine> read(UUID jobId, long afterSeq, int limit) {
        List<LogLine> result = new ArrayList<>(Math.min(limit, 1024));
        List<Chunk> chunks = jdbc.sql("""
                select first_seq, attempt, lines from log_chunks
                where job_id = ? and last_seq > ? order by first_seq limit ?""")
                .params(jobId, afterSeq, limit)
                .query((rs, row) -> new Chunk(rs.getLong(1), rs.getInt(2), rs.getString(3)))
                .list();
        for (Chunk chunk : chunks) {
            JsonNode lines = JSON.readTree(chunk.lines());
            for (int i = 0; i < lines.size() && result.size() < limit; i++) {
                long seq = chunk.firstSeq() + i;
                if (seq <= afterSeq) {
                    continue;
                }
                JsonNode line = lines.get(i);
                long micros = line.get(0).asLong();
                result.add(new LogLine(seq, chunk.attempt(),
                        Instant.ofEpochSecond(micros / 1_000_000, (micros % 1_000_000) * 1000),
                        LogStream.fromWireName(line.get(1).asString()), line.get(2).asInt(), line.get(3).asString()));
            }
            if (result.size() >= limit) {
                break;
            }
        }
        return result;
    }

    /** Where reading each file of an attempt resumes: the positions stored with its last chunk. */
    public Map<String, Long> readPositions(UUID jobId, int attempt) {
        return jdbc.sql("select source, byte_offset from log_read_positions where job_id = ? and attempt = ?")
                .params(jobId, attempt)
                .query((rs, row) -> Map.entry(rs.getString(1), rs.getLong(2)))
                .stream()
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    private record Chunk(long firstSeq, int attempt, String lines) {
    }
}

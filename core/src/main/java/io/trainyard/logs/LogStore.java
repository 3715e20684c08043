package io.trainyard.logs;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.trainyard.core.TrainyardProperties;
import io.trainyard.protocol.LineQueue;
import io.trainyard.protocol.OutputLine;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Durable log storage in chunks: one row per batch, its lines as newline-separated JSON objects in the form the API
 * serves, so followers send them without decoding and re-encoding each line, compressed ({@link ChunkCompression}). The
 * read positions of the sources the lines came from are stored in the same transaction, so a restarted reader resumes
 * exactly after the last stored line. Each attempt's lines are capped by its {@link LogQuota}.
 */
@Repository
public class LogStore {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final JdbcClient jdbc;
    private final TransactionTemplate transaction;
    private final LogQuota quota;
    private final Counter linesIngested;

    public LogStore(JdbcClient jdbc, PlatformTransactionManager transactionManager, TrainyardProperties properties,
            MeterRegistry registry) {
        this.jdbc = jdbc;
        this.transaction = new TransactionTemplate(transactionManager);
        this.quota = new LogQuota(properties.maxLogLinesPerAttempt());
        this.linesIngested = Counter.builder("trainyard.logs.lines.ingested")
                .description("Log lines stored, from all jobs").register(registry);
    }

    /**
     * What {@link #append} did.
     *
     * @param quotaReached the attempt's log quota is used up: its later lines are dropped
     */
    public record Appended(int lines, boolean quotaReached) {
    }

    /** The highest sequence number stored for the job, 0 if none. */
    public long lastSeq(UUID jobId) {
        return jdbc.sql("select coalesce(max(last_seq), 0) from log_chunks where job_id = ?")
                .param(jobId).query(Long.class).single();
    }

    /** How many lines of the attempt are stored. */
    private long countLines(UUID jobId, int attempt) {
        return jdbc.sql("select coalesce(sum(line_count), 0) from log_chunks where job_id = ? and attempt = ?")
                .params(jobId, attempt).query(Long.class).single();
    }

    /**
     * Stores a batch of an attempt's lines, as far as its quota admits them, numbered after the job's last
     * stored line, and the read positions just past the batch (by source), atomically; joins the caller's
     * transaction if there is one. Batches of one job must not be appended concurrently (their numbering would
     * collide): agents' batches are stored holding the job's row lock, a Vertex AI job's by the one replica
     * that follows it.
     */
    public Appended append(UUID jobId, int attempt, LineQueue.Batch batch) {
        return append(jobId, attempt, null, batch);
    }

    /** {@link #append(UUID, int, LineQueue.Batch)}, each line tagged with the host that printed it ({@link LogLine#host()}). */
    public Appended append(UUID jobId, int attempt, @Nullable String host, LineQueue.Batch batch) {
        Appended appended = transaction.execute(status -> {
            long accepted = countLines(jobId, attempt);
            List<OutputLine> admitted = quota.admit(accepted, batch.lines());
            if (!admitted.isEmpty()) {
                insertChunk(jobId, attempt, host, lastSeq(jobId) + 1, admitted);
            }
            savePositions(jobId, attempt, batch.positions());
            return new Appended(admitted.size(), quota.isReached(accepted + admitted.size()));
        });
        linesIngested.increment(appended.lines());
        return appended;
    }

    /** Whether the attempt's log quota is used up. */
    public boolean isQuotaReached(UUID jobId, int attempt) {
        return quota.isReached(countLines(jobId, attempt));
    }

    private void insertChunk(UUID jobId, int attempt, @Nullable String host, long firstSeq, List<OutputLine> lines) {
        ChunkCompression.Compressed encoded = ChunkCompression.compress(new ChunkEncoder().encode(firstSeq, attempt, host, lines));
        jdbc.sql("""
                insert into log_chunks (job_id, first_seq, last_seq, attempt, line_count, lines_lz4, lines_bytes)
                values (?, ?, ?, ?, ?, ?, ?)""")
                .params(jobId, firstSeq, firstSeq + lines.size() - 1, attempt, lines.size(), encoded.bytes(), encoded.textBytes())
                .update();
    }

    private void savePositions(UUID jobId, int attempt, Map<String, Long> positions) {
        positions.forEach((source, offset) -> jdbc.sql("""
                insert into log_read_positions (job_id, attempt, source, byte_offset) values (?, ?, ?, ?)
                on conflict (job_id, attempt, source) do update set byte_offset = excluded.byte_offset""")
                .params(jobId, attempt, source, offset)
                .update());
    }

    /** Up to {@code limit} lines with a sequence number above {@code afterSeq}, in order, as stored. */
    public List<StoredLine> readStored(UUID jobId, long afterSeq, int limit) {
        return readChunks(jobId, afterSeq, limit, limit);
    }

    /**
     * The lines above {@code afterSeq} of the chunks that hold the next {@code lines} lines, to the end of the last of
     * those chunks: a follower that reads on from there fetches each chunk once, where stopping mid-chunk would fetch
     * the chunk again for its rest.
     */
    public List<StoredLine> readWholeChunks(UUID jobId, long afterSeq, int lines) {
        return readChunks(jobId, afterSeq, lines, Integer.MAX_VALUE);
    }

    /**
     * The chunks holding lines {@code afterSeq + 1} to {@code afterSeq + lines}, in one query (lines are numbered
     * without gaps, so those are the chunks that begin at or before the last of them), read up to {@code limit} lines.
     */
    private List<StoredLine> readChunks(UUID jobId, long afterSeq, int lines, int limit) {
        List<Chunk> chunks = jdbc.sql("""
                select first_seq, last_seq, lines, lines_lz4, lines_bytes from log_chunks
                where job_id = ? and last_seq > ? and first_seq <= ? order by last_seq""")
                .params(jobId, afterSeq, afterSeq + lines)
                .query((rs, row) -> {
                    // Chunks stored before migration V19 hold their text as it is.
                    String text = rs.getString(3);
                    return new Chunk(rs.getLong(1), rs.getLong(2),
                            text != null ? text : ChunkCompression.decompress(rs.getBytes(4), rs.getInt(5)));
                })
                .list();
        List<StoredLine> result = new ArrayList<>(Math.min(lines, 8192));
        for (Chunk chunk : chunks) {
            chunk.addLinesAfter(afterSeq, limit, result);
        }
        return result;
    }

    /** Up to {@code limit} lines with a sequence number above {@code afterSeq}, decoded. */
    public List<LogLine> read(UUID jobId, long afterSeq, int limit) {
        return readStored(jobId, afterSeq, limit).stream().map(line -> JSON.readValue(line.json(), LogLine.class)).toList();
    }

    /** Where reading each file of an attempt resumes: the positions stored with its last chunk. */
    public Map<String, Long> readPositions(UUID jobId, int attempt) {
        return jdbc.sql("select source, byte_offset from log_read_positions where job_id = ? and attempt = ?")
                .params(jobId, attempt)
                .query((rs, row) -> Map.entry(rs.getString(1), rs.getLong(2)))
                // A list, not stream(): an unclosed query stream keeps its connection out of the pool.
                .list().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    private record Chunk(long firstSeq, long lastSeq, String lines) {

        /** Appends this chunk's lines numbered above {@code afterSeq} until {@code out} holds {@code limit}. */
        void addLinesAfter(long afterSeq, int limit, List<StoredLine> out) {
            int start = 0;
            for (long seq = firstSeq; seq <= lastSeq && out.size() < limit; seq++) {
                int end = lines.indexOf('\n', start);
                if (end < 0) {
                    end = lines.length();
                }
                if (seq > afterSeq) {
                    out.add(new StoredLine(seq, lines.substring(start, end)));
                }
                start = end + 1;
            }
        }
    }
}

package io.trainyard.scalars;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.trainyard.protocol.ScalarSeries;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Durable storage of jobs' scalars in chunks ({@code metric_chunks}): one row per tag and rank of each stored
 * batch, its points packed ({@link PointPacking}), with a summary (step range, min, max, last value) that answers
 * the tag list without unpacking. The read positions of the event files the points came from are stored in the
 * same transaction, so a restarted reader resumes just after the last stored point.
 *
 * <p>Jobs' system metrics are series too, kept apart in a table of the same shape by {@link SystemMetricStore}; this
 * store is the one injected where a {@code ScalarStore} is asked for.
 */
@Repository
@Primary
public class ScalarStore {

    private final JdbcClient jdbc;
    private final JdbcTemplate jdbcTemplate;
    private final Counter pointsIngested;
    private final String table;

    @Autowired
    public ScalarStore(JdbcClient jdbc, JdbcTemplate jdbcTemplate, MeterRegistry registry) {
        this(jdbc, jdbcTemplate, "metric_chunks", Counter.builder("trainyard.metrics.points.ingested")
                .description("TensorBoard scalar points stored, from all jobs").register(registry));
    }

    /** @param table a table shaped as {@code metric_chunks} */
    protected ScalarStore(JdbcClient jdbc, JdbcTemplate jdbcTemplate, String table, Counter pointsIngested) {
        this.jdbc = jdbc;
        this.jdbcTemplate = jdbcTemplate;
        this.table = table;
        this.pointsIngested = pointsIngested;
    }

    /**
     * What a job has of one tag: its step range, extremes, mean and last value (of its latest attempt).
     *
     * @param mean of every attempt's values, NaN left out; null when it has none (or only chunks stored before
     *     means were kept)
     */
    public record TagSummary(String tag, long points, long firstStep, long lastStep, Double min, Double max,
            Double mean, double lastValue, int lastAttempt) {
    }

    /** A stored chunk, for followers: its id orders chunks in the order they were stored. */
    public record Chunk(long id, String tag, int attempt, int rank, List<ScalarPoint> points) {
    }

    /**
     * Stores an attempt's series, one chunk each, and the event files' read positions just past them. Must run in
     * the caller's transaction, so the points and positions (and the caller's batch number) commit together.
     */
    public void append(UUID jobId, int attempt, List<ScalarSeries> series, Map<String, Long> positions) {
        List<Object[]> rows = new ArrayList<>(series.size());
        long points = 0;
        for (ScalarSeries one : series) {
            if (one.size() == 0) {
                continue;
            }
            rows.add(chunkRow(jobId, attempt, one));
            points += one.size();
        }
        if (!rows.isEmpty()) {
            jdbcTemplate.batchUpdate("insert into " + table + " (job_id, attempt, tag, rank, point_count, min_step, max_step, "
                    + "min_value, max_value, value_sum, value_count, last_step, last_value, sorted, points, blocks) "
                    + "values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows);
        }
        positions.forEach((source, offset) -> jdbc.sql("""
                insert into metric_read_positions (job_id, attempt, source, byte_offset) values (?, ?, ?, ?)
                on conflict (job_id, attempt, source) do update set byte_offset = excluded.byte_offset""")
                .params(jobId, attempt, source, offset)
                .update());
        pointsIngested.increment(points);
    }

    private static Object[] chunkRow(UUID jobId, int attempt, ScalarSeries series) {
        long minStep = Long.MAX_VALUE;
        long maxStep = Long.MIN_VALUE;
        double min = Double.NaN;
        double max = Double.NaN;
        double sum = 0;
        int counted = 0;
        boolean sorted = true;
        for (int i = 0; i < series.size(); i++) {
            sorted &= i == 0 || series.steps()[i] >= series.steps()[i - 1];
            minStep = Math.min(minStep, series.steps()[i]);
            maxStep = Math.max(maxStep, series.steps()[i]);
            double value = series.values()[i];
            if (!Double.isNaN(value)) {
                min = Double.isNaN(min) ? value : Math.min(min, value);
                max = Double.isNaN(max) ? value : Math.max(max, value);
                sum += value;
                counted++;
            }
        }
        int last = series.size() - 1;
        return new Object[] {jobId, attempt, series.tag(), series.rank(), series.size(), minStep, maxStep,
            Double.isNaN(min) ? null : min, Double.isNaN(max) ? null : max, sum, counted, series.steps()[last], series.values()[last],
            sorted, PointPacking.pack(series), PointPacking.packBlocks(series)};
    }

    /** Where reading each event file of an attempt resumes: the positions stored with its last chunk. */
    public Map<String, Long> readPositions(UUID jobId, int attempt) {
        return jdbc.sql("select source, byte_offset from metric_read_positions where job_id = ? and attempt = ?")
                .params(jobId, attempt)
                .query((rs, row) -> Map.entry(rs.getString(1), rs.getLong(2)))
                // A list, not stream(): an unclosed query stream keeps its connection out of the pool.
                .list().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    /** Every tag of the job, by name. */
    public List<TagSummary> tags(UUID jobId) {
        return jdbc.sql("""
                select tag, sum(point_count), min(min_step), max(max_step), min(min_value), max(max_value),
                    sum(value_sum) / nullif(sum(value_count), 0),
                    (array_agg(last_value order by attempt desc, id desc))[1], max(attempt)
                from\s""" + table + " where job_id = ? group by tag order by tag")
                .param(jobId)
                .query((rs, row) -> new TagSummary(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getLong(4),
                        rs.getObject(5, Double.class), rs.getObject(6, Double.class), rs.getObject(7, Double.class),
                        rs.getDouble(8), rs.getInt(9)))
                .list();
    }

    /** The highest step of any series the attempt stored; null if it stored none. */
    public Long lastStep(UUID jobId, int attempt) {
        return jdbc.sql("select max(max_step) from " + table + " where job_id = ? and attempt = ?")
                .params(jobId, attempt).query(Long.class).optional().orElse(null);
    }

    /** The latest attempt that wrote the tag, if any did. */
    public Integer latestAttempt(UUID jobId, String tag) {
        return jdbc.sql("select max(attempt) from " + table + " where job_id = ? and tag = ?")
                .params(jobId, tag).query(Integer.class).optional().orElse(null);
    }

    /**
     * A series as a chart gets it.
     *
     * @param total how many points the attempt has past the step asked for
     * @param points all of them by step, or at most the points asked for, downsampled
     */
    public record Series(long total, List<ScalarPoint> points) {

        public boolean downsampled() {
            return points.size() < total;
        }
    }

    /** A chunk's summary, and its blocks, which are all a long series needs. */
    private record ChunkSummary(int rank, int pointCount, long minStep, long maxStep, boolean sorted, byte[] blocks) {
    }

    /**
     * The attempt's points of the tag with a step above {@code afterStep}, by step, downsampled to at most
     * {@code maxPoints} ({@link Downsampling}). A series stored in step order whose buckets are many blocks long is
     * downsampled from the chunks' blocks alone; any other is unpacked whole.
     */
    public Series series(UUID jobId, String tag, int attempt, long afterStep, int maxPoints) {
        List<ChunkSummary> chunks = jdbc.sql("select rank, point_count, min_step, max_step, sorted, blocks from " + table
                        + " where job_id = ? and tag = ? and attempt = ? and max_step > ? order by id")
                .params(jobId, tag, attempt, afterStep)
                .query((rs, row) -> new ChunkSummary(rs.getInt(1), rs.getInt(2), rs.getLong(3), rs.getLong(4),
                        rs.getBoolean(5), rs.getBytes(6)))
                .list();
        long total = chunks.stream().mapToLong(ChunkSummary::pointCount).sum();
        if (inStepOrderAfter(chunks, afterStep) && total / Math.max(maxPoints / 2, 1) >= 4L * PointPacking.BLOCK_POINTS) {
            List<PointPacking.Block> blocks = new ArrayList<>((int) (total / PointPacking.BLOCK_POINTS + chunks.size()));
            for (ChunkSummary chunk : chunks) {
                PointPacking.unpackBlocks(chunk.blocks(), chunk.rank(), blocks);
            }
            return new Series(total, Downsampling.minMaxOfBlocks(blocks, total, maxPoints));
        }
        List<ScalarPoint> points = unpack(jobId, tag, attempt, afterStep);
        return new Series(points.size(), Downsampling.minMax(points, maxPoints));
    }

    /** Whether the chunks hold only steps above {@code afterStep}, each chunk in step order, one after the other. */
    private static boolean inStepOrderAfter(List<ChunkSummary> chunks, long afterStep) {
        long previousMax = afterStep;
        for (ChunkSummary chunk : chunks) {
            if (!chunk.sorted() || chunk.minStep() <= previousMax) {
                return false;
            }
            previousMax = chunk.maxStep();
        }
        return true;
    }

    /** Every point of the attempt's tag with a step above {@code afterStep}, by step (in stored order among equal steps). */
    private List<ScalarPoint> unpack(UUID jobId, String tag, int attempt, long afterStep) {
        List<ScalarPoint> points = new ArrayList<>();
        jdbc.sql("select rank, points from " + table + " where job_id = ? and tag = ? and attempt = ? and max_step > ? order by id")
                .params(jobId, tag, attempt, afterStep)
                .query(rs -> {
                    PointPacking.unpack(rs.getBytes(2), rs.getInt(1), afterStep, points);
                });
        if (!isSortedByStep(points)) {
            points.sort(Comparator.comparingLong(ScalarPoint::step));
        }
        return points;
    }

    /** Up to {@code limit} chunks of the job stored after chunk {@code afterId}, in the order they were stored. */
    public List<Chunk> chunksAfter(UUID jobId, long afterId, int limit) {
        return jdbc.sql("select id, tag, attempt, rank, points from " + table + " where job_id = ? and id > ? order by id limit ?")
                .params(jobId, afterId, limit)
                .query((rs, row) -> {
                    List<ScalarPoint> points = new ArrayList<>();
                    PointPacking.unpack(rs.getBytes(5), rs.getInt(4), Long.MIN_VALUE, points);
                    return new Chunk(rs.getLong(1), rs.getString(2), rs.getInt(3), rs.getInt(4), points);
                })
                .list();
    }

    private static boolean isSortedByStep(List<ScalarPoint> points) {
        for (int i = 1; i < points.size(); i++) {
            if (points.get(i).step() < points.get(i - 1).step()) {
                return false;
            }
        }
        return true;
    }
}

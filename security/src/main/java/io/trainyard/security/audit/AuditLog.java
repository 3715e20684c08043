package io.trainyard.security.audit;

import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;

import io.swagger.v3.oas.annotations.media.Schema;
import io.trainyard.database.GroupCommit;
import io.trainyard.submission.SubmissionAudit;
import io.trainyard.submission.SubmissionService;
import io.trainyard.validation.InvalidRequestException;
import jakarta.annotation.PreDestroy;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Who did what, when, from where, and how it went: one row per state-changing request. Records of concurrent
 * requests are committed together (see {@link GroupCommit}): under load the audit costs a request a share of one
 * commit, not one of its own. A submission's record is written in the transaction that stores its job
 * ({@link SubmissionAudit}), with the answer it gets once that commits.
 */
@Repository
public class AuditLog implements SubmissionAudit {

    /** The most records one transaction stores. */
    private static final int MAX_COMMIT_BATCH = 256;
    private static final String INSERT = """
            insert into audit_events (at, actor, action, target, source_address, outcome, detail)
            values (?, ?, ?, ?, ?, ?, ?)""";

    private final JdbcClient jdbc;
    private final JdbcTemplate batches;
    private final Clock clock;
    private final GroupCommit<Object[], Boolean> commits;

    public AuditLog(JdbcClient jdbc, JdbcTemplate batches, TransactionTemplate transactions, Clock clock) {
        this.jdbc = jdbc;
        this.batches = batches;
        this.clock = clock;
        this.commits = new GroupCommit<>("audit-commits", MAX_COMMIT_BATCH, records -> transactions.execute(status -> {
            batches.batchUpdate(INSERT, records);
            return Collections.nCopies(records.size(), true);
        }));
    }

    /** Stores what was handed over before the server stopped taking requests. */
    @PreDestroy
    void close() throws InterruptedException {
        commits.close();
    }

    public enum Outcome { SUCCEEDED, DENIED, NOT_FOUND, REJECTED, FAILED }

    /**
     * @param target what it was done to: the resource's path (for a creation, the created resource's)
     * @param detail the HTTP status, and the reason where there is one
     */
    @NullMarked
    @Schema(name = "AuditEvent")
    public record Event(long id, Instant at, String actor, String action, @Nullable String target,
            @Nullable String sourceAddress, Outcome outcome, @Nullable String detail) {
    }

    /** Returns once the record is committed. */
    public void record(String actor, String action, String target, String sourceAddress, Outcome outcome, String detail) {
        commits.write(new Object[] {Timestamp.from(clock.instant()), actor, action, target, sourceAddress, outcome.name(), detail});
    }

    /** Each submission as its answer tells it: created, 201, at the job's own path. */
    @Override
    public void recordStored(List<SubmissionService.Stored> stored) {
        Timestamp at = Timestamp.from(clock.instant());
        batches.batchUpdate(INSERT, stored.stream().map(submission -> new Object[] {at, submission.submitter().name(), ACTION,
                "/jobs/" + submission.job().getId(), submission.submitter().address(), Outcome.SUCCEEDED.name(), "HTTP 201"}).toList());
    }

    /** Filters of a listing; null means no filter. */
    public record Filter(String actor, String action, String target, Outcome outcome, Instant since, Instant until) {

        /** Whether a value asks for a NUL character, which no record has (PostgreSQL text cannot hold it). */
        boolean matchesNothing() {
            return Stream.of(actor, action, target).anyMatch(value -> value != null && value.indexOf('\0') >= 0);
        }
    }

    @NullMarked
    @Schema(name = "AuditPage")
    public record Page(List<Event> events, @Nullable String nextCursor) {
    }

    /** Newest first, {@code limit} at a time; {@code cursor} is the previous page's {@code nextCursor}. */
    public Page list(Filter filter, String cursor, int limit) {
        if (filter.matchesNothing()) {
            return new Page(List.of(), null);
        }
        StringBuilder sql = new StringBuilder("select id, at, actor, action, target, source_address, outcome, detail "
                + "from audit_events where true");
        MapSqlParameterSource params = new MapSqlParameterSource();
        if (filter.actor() != null) {
            sql.append(" and actor = :actor");
            params.addValue("actor", filter.actor());
        }
        if (filter.action() != null) {
            sql.append(" and action = :action");
            params.addValue("action", filter.action());
        }
        if (filter.target() != null) {
            sql.append(" and target = :target");
            params.addValue("target", filter.target());
        }
        if (filter.outcome() != null) {
            sql.append(" and outcome = :outcome");
            params.addValue("outcome", filter.outcome().name());
        }
        if (filter.since() != null) {
            sql.append(" and at >= :since");
            params.addValue("since", Timestamp.from(filter.since()));
        }
        if (filter.until() != null) {
            sql.append(" and at < :until");
            params.addValue("until", Timestamp.from(filter.until()));
        }
        if (cursor != null && !cursor.isBlank()) {
            sql.append(" and id < :after");
            params.addValue("after", decode(cursor));
        }
        sql.append(" order by id desc limit :limit");
        params.addValue("limit", limit + 1);
        List<Event> events = jdbc.sql(sql.toString()).paramSource(params).query(AuditLog::event).list();
        boolean more = events.size() > limit;
        List<Event> page = more ? events.subList(0, limit) : events;
        return new Page(page, more ? encode(page.getLast().id()) : null);
    }

    private static Event event(ResultSet rs, int row) throws SQLException {
        return new Event(rs.getLong(1), rs.getTimestamp(2).toInstant(), rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getString(6), Outcome.valueOf(rs.getString(7)), rs.getString(8));
    }

    private static String encode(long id) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(Long.toString(id).getBytes(StandardCharsets.US_ASCII));
    }

    private static long decode(String cursor) {
        try {
            return Long.parseLong(new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.US_ASCII));
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException("cursor", "is not a cursor this server handed out");
        }
    }
}

package io.trainyard.job;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.trainyard.validation.InvalidRequestException;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads for the API: filtered listing, newest first, with an opaque cursor of the last row's
 * (created_at, id) so pages stay stable while new jobs arrive.
 */
@Repository
public class JobQueries {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final JdbcClient jdbc;
    private final JobRepository jobs;
    private final JobEventRepository events;

    public JobQueries(JdbcClient jdbc, JobRepository jobs, JobEventRepository events) {
        this.jdbc = jdbc;
        this.jobs = jobs;
        this.events = events;
    }

    /**
     * Filters of a listing; null or empty means no filter, except {@code projects}: null lists every project's
     * jobs, an empty set none.
     */
    public record Filter(Collection<JobState> states, String namePrefix, Map<String, String> labels,
            Collection<String> projects) {

        /**
         * Whether a value asks for a NUL character, which no name, label or project has (PostgreSQL text cannot
         * hold it, and would refuse the query).
         */
        boolean matchesNothing() {
            return hasNul(namePrefix) || (labels != null && labels.entrySet().stream()
                    .anyMatch(label -> hasNul(label.getKey()) || hasNul(label.getValue())))
                    || (projects != null && projects.stream().anyMatch(Filter::hasNul));
        }

        private static boolean hasNul(String value) {
            return value != null && value.indexOf('\0') >= 0;
        }
    }

    public record Page(List<Job> jobs, String nextCursor) {
    }

    public Job get(UUID id) {
        return jobs.findById(id).orElseThrow(() -> new JobNotFoundException(id));
    }

    public Page list(Filter filter, String cursor, int limit) {
        if (filter.matchesNothing()) {
            return new Page(List.of(), null);
        }
        StringBuilder sql = new StringBuilder("select id from jobs where true");
        MapSqlParameterSource params = new MapSqlParameterSource();
        if (filter.states() != null && !filter.states().isEmpty()) {
            sql.append(" and state in (:states)");
            params.addValue("states", filter.states().stream().map(Enum::name).toList());
        }
        if (filter.projects() != null) {
            if (filter.projects().isEmpty()) {
                return new Page(List.of(), null);
            }
            sql.append(" and project in (:projects)");
            params.addValue("projects", filter.projects());
        }
        if (filter.namePrefix() != null && !filter.namePrefix().isEmpty()) {
            sql.append(" and job_name like :prefix");
            params.addValue("prefix", filter.namePrefix().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%");
        }
        if (filter.labels() != null && !filter.labels().isEmpty()) {
            sql.append(" and labels @> cast(:labels as jsonb)");
            params.addValue("labels", JSON.writeValueAsString(filter.labels()));
        }
        if (cursor != null && !cursor.isEmpty()) {
            Cursor after = Cursor.decode(cursor);
            sql.append(" and (created_at, id) < (:cursorTime, :cursorId)");
            params.addValue("cursorTime", java.sql.Timestamp.from(after.createdAt()));
            params.addValue("cursorId", after.id());
        }
        sql.append(" order by created_at desc, id desc limit :limit");
        params.addValue("limit", limit + 1);
        List<UUID> ids = jdbc.sql(sql.toString()).paramSource(params).query(UUID.class).list();
        boolean more = ids.size() > limit;
        List<UUID> pageIds = more ? ids.subList(0, limit) : ids;
        Map<UUID, Job> byId = jobs.findAllById(pageIds).stream().collect(Collectors.toMap(Job::getId, Function.identity()));
        List<Job> page = new ArrayList<>(pageIds.size());
        pageIds.forEach(id -> page.add(byId.get(id)));
        String next = more ? new Cursor(page.getLast().getCreatedAt(), page.getLast().getId()).encode() : null;
        return new Page(page, next);
    }

    /** The few fields a log follower polls, without loading the configs. */
    public record Status(JobState state, int attempt, Integer exitCode, FailureCause failureCause, String failureMessage) {
    }

    /** The project of a job: what decides who may see it. */
    public String projectOf(UUID jobId) {
        return jdbc.sql("select project from jobs where id = ?").param(jobId).query(String.class).optional()
                .orElseThrow(() -> new JobNotFoundException(jobId));
    }

    public Status status(UUID jobId) {
        return jdbc.sql("select state, attempt, exit_code, failure_cause, failure_message from jobs where id = ?")
                .param(jobId)
                .query((rs, row) -> new Status(JobState.valueOf(rs.getString(1)), rs.getInt(2),
                        (Integer) rs.getObject(3), rs.getString(4) == null ? null : FailureCause.valueOf(rs.getString(4)),
                        rs.getString(5)))
                .optional()
                .orElseThrow(() -> new JobNotFoundException(jobId));
    }

    public List<JobEvent> events(UUID jobId) {
        if (!jobs.existsById(jobId)) {
            throw new JobNotFoundException(jobId);
        }
        return events.findByJobIdOrderByIdAsc(jobId);
    }

    /** Position after a listed job; microsecond precision, as PostgreSQL stores timestamps. */
    record Cursor(Instant createdAt, UUID id) {

        String encode() {
            String raw = ChronoUnit.MICROS.between(Instant.EPOCH, createdAt) + ":" + id;
            return Base64.getUrlEncoder().withoutPadding().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
        }

        static Cursor decode(String cursor) {
            try {
                String raw = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
                int colon = raw.indexOf(':');
                long micros = Long.parseLong(raw.substring(0, colon));
                return new Cursor(Instant.EPOCH.plus(micros, ChronoUnit.MICROS), UUID.fromString(raw.substring(colon + 1)));
            } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
                throw new InvalidRequestException("cursor", "is not a cursor this server handed out");
            }
        }
    }
}

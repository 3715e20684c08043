package io.trainyard.api.logs;

import java.io.IOException;
import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.trainyard.follow.JobFollowing;
import io.trainyard.job.JobQueries;
import io.trainyard.logs.LogLine;
import io.trainyard.logs.LogStore;
import io.trainyard.logs.StoredLine;
import io.trainyard.security.LastingAccess;
import io.trainyard.security.ProjectAccess;
import io.trainyard.security.Role;
import io.trainyard.security.limits.RateLimited;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.json.JsonMapper;

@RestController
@RequestMapping("/jobs/{id}/logs")
@Tag(name = "logs", description = "A job's log lines, paged or followed live")
public class LogController {

    private static final int MAX_PAGE = 10_000;
    /** Lines read and sent at once by a live follow (to the end of the chunk that holds the last of them). */
    private static final int LINES_PER_EVENT_BATCH = 5_000;

    private final LogStore store;
    private final JobFollowing following;
    private final JobQueries queries;
    private final ProjectAccess access;
    private final JsonMapper json;

    public LogController(LogStore store, JobFollowing following, JobQueries queries, ProjectAccess access, JsonMapper json) {
        this.store = store;
        this.following = following;
        this.queries = queries;
        this.access = access;
        this.json = json;
    }

    @GetMapping
    @Operation(operationId = "getJobLogs", summary = "Log lines with a sequence number above `after`, oldest first")
    public LogPageView page(@PathVariable UUID id,
            @Parameter(description = "The sequence number of the last line already seen (0 or empty: from the start)",
                    allowEmptyValue = true)
            @RequestParam(defaultValue = "0") @Min(0) long after,
            @Parameter(description = "Lines per page; empty: the default", allowEmptyValue = true)
            @RequestParam(defaultValue = "1000") @Min(1) @Max(MAX_PAGE) int limit) {
        access.requireJob(id, Role.VIEWER);
        JobQueries.Status status = queries.status(id);
        List<LogLine> lines = store.read(id, after, limit);
        long nextAfter = lines.isEmpty() ? after : lines.getLast().seq();
        return new LogPageView(lines, nextAfter, status.state(), store.lastSeq(id));
    }

    @GetMapping(value = "/stream", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    @RateLimited(RateLimited.Kind.STREAM)
    @Operation(operationId = "followJobLogs", summary = "Follow the log live as Server-Sent Events",
            description = """
                    A text/event-stream that stays open until the job has ended and all its lines were sent. Events:

                    - `log`: one log line. `id` is the line's sequence number; `data` is a LogLine as JSON \
                    (`{"seq", "attempt", "time", "stream", "rank", "text"}`, schema `LogLine`).
                    - `end`: the last event, sent after every line of the job; `data` is a LogEnd as JSON \
                    (`{"state", "attempt", "exitCode", "failureCause", "failureMessage"}`, schema `LogEnd`).
                    - `error`: the last event instead of `end` when the caller may no longer read the job: within 2 s \
                    of its token being revoked or expiring (`status` 401) or of its removal from the job's project \
                    (404); `data` is the problem detail as JSON (schema `Problem`).

                    The stream starts with `retry: 1000` and sends a comment (`: keepalive`) when idle. After a dropped \
                    connection, reconnect with `Last-Event-ID` (or `after`) set to the last `id` seen: no line is lost \
                    or repeated.""",
            responses = @ApiResponse(responseCode = "200", description = "The stream of `log` events, then one `end` event (or `error`)",
                    content = @Content(mediaType = MediaType.TEXT_EVENT_STREAM_VALUE, schema = @Schema(type = "string"))))
    public void stream(@PathVariable UUID id,
            @Parameter(description = "Resume after this sequence number (set by EventSource on reconnect)",
                    schema = @Schema(pattern = "^[0-9]*$", maxLength = 18))
            @RequestHeader(value = "Last-Event-ID", required = false) @Nullable String lastEventId,
            @Parameter(description = "Start after this sequence number when there is no Last-Event-ID (empty: from the start)",
                    allowEmptyValue = true)
            @RequestParam(defaultValue = "0") @Min(0) long after,
            HttpServletRequest request, HttpServletResponse response) throws IOException, InterruptedException {
        long cursor = EventStream.resumeAfter(lastEventId, after);
        LastingAccess lasting = access.requireJobThroughout(id, Role.VIEWER);
        EventStream stream = EventStream.open(request, response, json);
        try {
            following.follow(id, cursor, (job, seq) -> store.readWholeChunks(job, seq, LINES_PER_EVENT_BATCH), StoredLine::seq,
                    stream.follower(lasting, (line, events) -> EventStream.appendEvent(events, line.seq(), "log", line.json())));
        } catch (IOException e) {
            // The client went away; nothing to clean up.
        }
    }
}

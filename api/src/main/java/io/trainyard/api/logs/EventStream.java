package io.trainyard.api.logs;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

import io.trainyard.follow.JobFollowing;
import io.trainyard.job.JobQueries;
import io.trainyard.problem.ProblemJson;
import io.trainyard.security.LastingAccess;
import io.trainyard.validation.InvalidRequestException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Server-Sent Events answer of a job's live follow (its log, its scalars): headers that keep proxies from
 * buffering it, the client's reconnect delay, events written out at once, keep-alive comments while nothing
 * happens, and the job's final {@code end} event; or, when the client loses the right to read the job while it
 * follows (its token revoked or expired, its membership gone), an {@code error} event carrying the problem detail
 * a new request would get, and nothing after it.
 */
public final class EventStream {

    private final OutputStream out;
    private final JsonMapper json;
    private final String path;

    private EventStream(OutputStream out, JsonMapper json, String path) {
        this.out = out;
        this.json = json;
        this.path = path;
    }

    /** Starts the answer: its headers, then the reconnect delay EventSource clients use after a dropped connection. */
    public static EventStream open(HttpServletRequest request, HttpServletResponse response, JsonMapper json) throws IOException {
        response.setContentType(MediaType.TEXT_EVENT_STREAM_VALUE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.setHeader("Cache-Control", "no-cache");
        response.setHeader("X-Accel-Buffering", "no");
        EventStream stream = new EventStream(response.getOutputStream(), json, request.getRequestURI());
        stream.send("retry: 1000\n\n");
        return stream;
    }

    /**
     * Where a reconnecting client resumes: after its {@code Last-Event-ID} (a stored line's or chunk's number),
     * else after {@code otherwise}.
     */
    public static long resumeAfter(@Nullable String lastEventId, long otherwise) {
        if (lastEventId == null || lastEventId.isEmpty()) {
            return otherwise;
        }
        // At most 18 digits: every such number is a long, as the document's pattern for the header says.
        if (lastEventId.length() > 18 || !lastEventId.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new InvalidRequestException("Last-Event-ID", "must be the id of an event of this stream, got '" + lastEventId + "'");
        }
        return Long.parseLong(lastEventId);
    }

    /** Writes events (each ending in a blank line) and flushes them to the client. */
    public void send(String events) throws IOException {
        out.write(events.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** The last event: the job's final state, sent after everything it stored. */
    public void end(JobQueries.Status status) throws IOException {
        send("event: end\ndata: " + json.writeValueAsString(LogEndView.of(status)) + "\n\n");
    }

    /** The last event of a stream whose client may no longer read the job: why, as a problem detail. */
    public void error(LastingAccess.Refusal refusal) throws IOException {
        send("event: error\ndata: " + ProblemJson.text(refusal.status(), refusal.title(), refusal.detail(), path) + "\n\n");
    }

    /** A comment, so that proxies and clients keep an idle connection open. */
    public void keepAlive() throws IOException {
        send(": keepalive\n\n");
    }

    /** Appends one item as its event: {@code id: …}, {@code event: …}, {@code data: …} and a blank line. */
    @FunctionalInterface
    public interface EventFormat<T> {
        void append(T item, StringBuilder events);
    }

    /** Appends an event whose data is one line of JSON. */
    public static void appendEvent(StringBuilder events, long id, String name, String jsonData) {
        events.append("id: ").append(id).append("\nevent: ").append(name).append("\ndata: ").append(jsonData).append("\n\n");
    }

    /**
     * A follow written to this stream: each batch of items as events at once, then the end, kept alive meanwhile;
     * ended with an error as soon as {@code access} is refused.
     */
    public <T> JobFollowing.Follower<T> follower(LastingAccess access, EventFormat<T> format) {
        return new JobFollowing.Follower<>() {
            @Override
            public void items(List<T> items) throws IOException {
                StringBuilder events = new StringBuilder(items.size() * 160);
                items.forEach(item -> format.append(item, events));
                send(events.toString());
            }

            @Override
            public void end(JobQueries.Status status) throws IOException {
                EventStream.this.end(status);
            }

            @Override
            public void keepAlive() throws IOException {
                EventStream.this.keepAlive();
            }

            @Override
            public boolean stillAllowed() throws IOException {
                Optional<LastingAccess.Refusal> refusal = access.refusal();
                if (refusal.isPresent()) {
                    error(refusal.get());
                }
                return refusal.isEmpty();
            }
        };
    }
}

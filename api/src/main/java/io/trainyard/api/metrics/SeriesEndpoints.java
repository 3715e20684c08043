package io.trainyard.api.metrics;

import java.io.IOException;
import java.util.List;
import java.util.UUID;

import io.trainyard.api.logs.EventStream;
import io.trainyard.follow.JobFollowing;
import io.trainyard.job.JobQueries;
import io.trainyard.scalars.ScalarStore;
import io.trainyard.security.LastingAccess;
import io.trainyard.security.ProjectAccess;
import io.trainyard.security.Role;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the scalars' and the system metrics' endpoints do alike, each over its own store: list a job's series,
 * answer one downsampled, follow new points as Server-Sent Events.
 */
final class SeriesEndpoints {

    static final int MAX_POINTS = 100_000;
    /** What a tag may be: any text, not empty, without control characters (a NUL, say, which PostgreSQL text cannot hold). */
    static final String TAG = "^[^\\x00-\\x1F\\x7F]+$";
    /** Chunks read and sent at once by a live follow. */
    private static final int CHUNKS_PER_EVENT_BATCH = 64;

    private final ScalarStore store;
    private final JobFollowing following;
    private final JobQueries queries;
    private final ProjectAccess access;
    private final JsonMapper json;

    SeriesEndpoints(ScalarStore store, JobFollowing following, JobQueries queries, ProjectAccess access, JsonMapper json) {
        this.store = store;
        this.following = following;
        this.queries = queries;
        this.access = access;
        this.json = json;
    }

    List<MetricTagView> tags(UUID id) {
        access.requireJob(id, Role.VIEWER);
        return store.tags(id).stream().map(MetricTagView::of).toList();
    }

    void stream(UUID id, @Nullable String lastEventId, HttpServletRequest request, HttpServletResponse response)
            throws IOException, InterruptedException {
        long cursor = EventStream.resumeAfter(lastEventId, 0);
        LastingAccess lasting = access.requireJobThroughout(id, Role.VIEWER);
        EventStream stream = EventStream.open(request, response, json);
        try {
            following.follow(id, cursor, (job, chunkId) -> store.chunksAfter(job, chunkId, CHUNKS_PER_EVENT_BATCH), ScalarStore.Chunk::id,
                    stream.follower(lasting, (chunk, events) -> EventStream.appendEvent(events, chunk.id(), "points",
                            json.writeValueAsString(new MetricChunkView(chunk.tag(), chunk.attempt(), chunk.points())))));
        } catch (IOException e) {
            // The client went away; nothing to clean up.
        }
    }

    MetricSeriesView series(UUID id, String tag, @Nullable Integer attempt, @Nullable Long after, int maxPoints) {
        access.requireJob(id, Role.VIEWER);
        JobQueries.Status status = queries.status(id);
        Integer chosen = attempt != null ? attempt : store.latestAttempt(id, tag);
        ScalarStore.Series series = chosen == null ? new ScalarStore.Series(0, List.of())
                : store.series(id, tag, chosen, after == null ? Long.MIN_VALUE : after, maxPoints);
        return new MetricSeriesView(tag, chosen, series.total(), series.downsampled(), series.points(), status.state());
    }
}

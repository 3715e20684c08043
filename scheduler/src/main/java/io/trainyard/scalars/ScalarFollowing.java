package io.trainyard.scalars;

import java.io.IOException;
import java.util.List;
import java.util.UUID;

import io.trainyard.job.JobQueries;
import io.trainyard.logs.LogFollowers;
import org.springframework.stereotype.Component;

/**
 * Follows a job's scalars from a stored chunk to the job's end, for a live chart (the API's SSE stream): chunks
 * as soon as this server stores them (the job's {@link LogFollowers} wake-up, which storing scalars also signals)
 * or another replica does (a re-read every {@value #FOLLOW_WAIT_MILLIS} ms), then the job's final state once every
 * chunk has been handed over.
 */
@Component
public class ScalarFollowing {

    private static final int CHUNKS_PER_READ = 64;
    private static final long FOLLOW_WAIT_MILLIS = 250;
    private static final long KEEPALIVE_MILLIS = 15_000;

    private final ScalarStore store;
    private final LogFollowers followers;
    private final JobQueries queries;

    public ScalarFollowing(ScalarStore store, LogFollowers followers, JobQueries queries) {
        this.store = store;
        this.followers = followers;
        this.queries = queries;
    }

    /** Where a follow goes: a transport (SSE) writes each call out at once. */
    public interface Follower {

        void chunks(List<ScalarStore.Chunk> chunks) throws IOException;

        /** The job ended and every chunk of it was handed to {@link #chunks}. */
        void end(JobQueries.Status status) throws IOException;

        /** Nothing happened for a while: a transport keeps its connection open. */
        void keepAlive() throws IOException;
    }

    /**
     * Hands the job's chunks stored after chunk {@code afterId} to the follower, then the end.
     *
     * @throws IOException when the follower's transport fails (the client went away)
     */
    public void follow(UUID jobId, long afterId, Follower follower) throws IOException, InterruptedException {
        long cursor = afterId;
        long lastWrite = System.currentTimeMillis();
        while (true) {
            // State first, then chunks: a run's scalars are all stored before it is marked ended.
            JobQueries.Status status = queries.status(jobId);
            List<ScalarStore.Chunk> chunks = store.chunksAfter(jobId, cursor, CHUNKS_PER_READ);
            if (!chunks.isEmpty()) {
                follower.chunks(chunks);
                cursor = chunks.getLast().id();
                lastWrite = System.currentTimeMillis();
                continue;
            }
            if (status.state().isTerminal()) {
                follower.end(status);
                return;
            }
            if (System.currentTimeMillis() - lastWrite > KEEPALIVE_MILLIS) {
                follower.keepAlive();
                lastWrite = System.currentTimeMillis();
            }
            followers.await(jobId, FOLLOW_WAIT_MILLIS);
        }
    }
}

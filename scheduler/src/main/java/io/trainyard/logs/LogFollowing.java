package io.trainyard.logs;

import java.io.IOException;
import java.util.List;
import java.util.UUID;

import io.trainyard.job.JobQueries;
import org.springframework.stereotype.Component;

/**
 * Follows a job's log from a sequence number to its end, for a live tail (the API's SSE stream): stored lines
 * as soon as this server stores them (a wake-up) or another replica does (a re-read every
 * {@value #FOLLOW_WAIT_MILLIS} ms), and the job's final state once every line has been handed over.
 */
@Component
public class LogFollowing {

    private static final int BATCH = 5_000;
    private static final long FOLLOW_WAIT_MILLIS = 250;
    private static final long KEEPALIVE_MILLIS = 15_000;

    private final LogStore store;
    private final LogFollowers followers;
    private final JobQueries queries;

    public LogFollowing(LogStore store, LogFollowers followers, JobQueries queries) {
        this.store = store;
        this.followers = followers;
        this.queries = queries;
    }

    /** Where a follow goes: a transport (SSE) writes each call out at once. */
    public interface Follower {

        void lines(List<StoredLine> lines) throws IOException;

        /** The job ended and every line of it was handed to {@link #lines}. */
        void end(JobQueries.Status status) throws IOException;

        /** Nothing happened for a while: a transport keeps its connection open. */
        void keepAlive() throws IOException;
    }

    /**
     * Hands the job's lines above {@code afterSeq} to the follower, then the end; returns when the job has
     * ended and everything was handed over.
     *
     * @throws IOException when the follower's transport fails (the client went away)
     */
    public void follow(UUID jobId, long afterSeq, Follower follower) throws IOException, InterruptedException {
        long cursor = afterSeq;
        long lastWrite = System.currentTimeMillis();
        while (true) {
            // State first, then lines: a run's lines are all stored before it is marked ended, so an ended
            // state with nothing left to read means the log is complete.
            JobQueries.Status status = queries.status(jobId);
            List<StoredLine> lines = store.readStored(jobId, cursor, BATCH);
            if (!lines.isEmpty()) {
                follower.lines(lines);
                cursor = lines.getLast().seq();
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

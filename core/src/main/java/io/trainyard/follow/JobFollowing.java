package io.trainyard.follow;

import java.io.IOException;
import java.util.List;
import java.util.UUID;
import java.util.function.ToLongFunction;

import io.trainyard.job.JobQueries;
import org.springframework.stereotype.Component;

/**
 * Follows what a job stores in order (its log lines, its scalar chunks) from a position to the job's end, for a
 * live tail (the API's SSE streams): items as soon as this server stores them (a {@link JobWakeUps} signal) or
 * another replica does (a re-read every {@value #FOLLOW_WAIT_MILLIS} ms), then the job's final state once
 * everything it stored has been handed over. Before every read the follower is asked whether its client may still
 * follow the job, so a follow ends within moments of its client losing access.
 */
@Component
public class JobFollowing {

    private static final long FOLLOW_WAIT_MILLIS = 250;
    private static final long KEEPALIVE_MILLIS = 15_000;

    private final JobWakeUps wakeUps;
    private final JobQueries queries;

    public JobFollowing(JobWakeUps wakeUps, JobQueries queries) {
        this.wakeUps = wakeUps;
        this.queries = queries;
    }

    /** Reads the next stored items after a position, in order, a batch at a time (none: nothing new yet). */
    @FunctionalInterface
    public interface Reader<T> {
        List<T> after(UUID jobId, long position);
    }

    /** Where a follow goes: a transport (SSE) writes each call out at once. */
    public interface Follower<T> {

        void items(List<T> items) throws IOException;

        /** The job ended and everything it stored was handed to {@link #items}. */
        void end(JobQueries.Status status) throws IOException;

        /** Nothing happened for a while: a transport keeps its connection open. */
        void keepAlive() throws IOException;

        /**
         * Whether the client may still follow the job (its token not revoked, its role kept), asked before every
         * read; false ends the follow at once, after the transport has told its client why.
         */
        boolean stillAllowed() throws IOException;
    }

    /**
     * Hands the job's items after {@code after} to the follower, then the end; returns when the job has ended and
     * everything was handed over, or when the follower is no longer allowed to follow.
     *
     * @param position an item's position, the next read's starting point
     * @throws IOException when the follower's transport fails (the client went away)
     */
    public <T> void follow(UUID jobId, long after, Reader<T> reader, ToLongFunction<T> position, Follower<T> follower)
            throws IOException, InterruptedException {
        long cursor = after;
        long lastWrite = System.currentTimeMillis();
        while (follower.stillAllowed()) {
            // State first, then items: a run's lines and scalars are all stored before it is marked ended, so an
            // ended state with nothing left to read means the follow is complete.
            JobQueries.Status status = queries.status(jobId);
            List<T> items = reader.after(jobId, cursor);
            if (!items.isEmpty()) {
                follower.items(items);
                cursor = position.applyAsLong(items.getLast());
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
            wakeUps.await(jobId, FOLLOW_WAIT_MILLIS);
        }
    }
}

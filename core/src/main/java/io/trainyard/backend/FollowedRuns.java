package io.trainyard.backend;

import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The runs a backend follows while something outside the server runs them (a Vertex AI CustomJob, a Slurm batch
 * job), each on a virtual thread of its own. At shutdown every follower is interrupted and the runs go on outside;
 * the next start follows them again ({@link Backend#recover}).
 *
 * @param <R> the backend's run type
 */
public final class FollowedRuns<R> {

    private static final Logger log = LoggerFactory.getLogger(FollowedRuns.class);

    /** Follows one run until it has ended and is recorded. */
    @FunctionalInterface
    public interface Follower {

        /** @throws InterruptedException when the server shuts down */
        void follow() throws InterruptedException;
    }

    private final String backend;
    private final Map<UUID, R> runs = new ConcurrentHashMap<>();
    private final Map<UUID, Thread> threads = new ConcurrentHashMap<>();

    /** @param backend the backend's name, for thread names and logs */
    public FollowedRuns(String backend) {
        this.backend = backend;
    }

    /**
     * Follows a job's run on a thread of its own.
     *
     * @param onShutdown what the run lets go of when the server shuts down mid-follow
     */
    public void start(UUID jobId, R run, Follower follower, Runnable onShutdown) {
        Thread thread = Thread.ofVirtual().name(backend + "-" + jobId).unstarted(() -> {
            try {
                follower.follow();
            } catch (InterruptedException e) {
                onShutdown.run();
            } catch (RuntimeException e) {
                log.error("Following job {} on {} failed", jobId, backend, e);
            } finally {
                runs.remove(jobId);
                threads.remove(jobId);
            }
        });
        runs.put(jobId, run);
        threads.put(jobId, thread);
        thread.start();
    }

    /** The job's run, while it is followed. */
    public Optional<R> run(UUID jobId) {
        return Optional.ofNullable(runs.get(jobId));
    }

    /** At shutdown: every follower stops, and the runs go on outside. */
    public void interruptAll() {
        threads.values().forEach(Thread::interrupt);
    }
}

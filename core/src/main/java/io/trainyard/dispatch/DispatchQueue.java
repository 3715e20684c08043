package io.trainyard.dispatch;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

import io.trainyard.backend.Backend;
import io.trainyard.backend.PlacementDecision;
import io.trainyard.backend.PlacementPass;
import io.trainyard.core.TrainyardProperties;
import io.trainyard.job.Job;
import io.trainyard.job.JobRepository;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The queue as the dispatcher sees it: each backend's queued jobs in dispatch order, each with its position and
 * why it waits. It replays a dispatch pass without claiming anything: the placement logic places the jobs one
 * after the other on a copy of the pool's free capacity, so a job that would fit an empty pool but not what the
 * jobs ahead of it take is "waiting behind" them. The answer is computed at most once a second and shared, so
 * listing jobs does not replay the pass per request; a reader that finds it a little stale takes it as it is while
 * a new one is replayed behind it, so a burst of submissions (each answer shows the job's place) never queues up
 * behind a replay.
 */
@Component
public class DispatchQueue {

    /** How many queued jobs per backend are replayed; those further back are only "behind" them. */
    static final int DEPTH = 1000;
    private static final long FRESH_MILLIS = 1000;
    /** Older than this, a reader waits for a new replay rather than be shown a queue long gone. */
    private static final long STALE_MILLIS = 5000;
    private static final Logger log = LoggerFactory.getLogger(DispatchQueue.class);

    /**
     * @param position 1 for the job the backend takes next; it counts every job ahead, whoever may see them
     * @param reason why the job is not running yet, unless it waits behind a starving job
     * @param behind the starving job it waits behind, or null
     */
    public record Waiting(Job job, int position, @Nullable String reason, @Nullable Job behind) {

        /**
         * Why the job is not running yet, as told to a caller who may see only some projects' jobs: the job it
         * waits behind is named only if the caller may see that job's project.
         */
        public String reasonSeenBy(Predicate<String> visibleProject) {
            if (behind == null) {
                return reason;
            }
            String ahead = visibleProject.test(behind.getProject()) ? behind.getJobName() : "a job of another project";
            return "waiting behind " + ahead + ", queued the longest, until it fits";
        }
    }

    private final JobRepository jobs;
    private final List<Backend> backends;
    private final TrainyardProperties properties;
    private final Clock clock;
    private volatile Snapshot snapshot = new Snapshot(Instant.EPOCH, List.of(), Map.of());
    private final AtomicBoolean replaying = new AtomicBoolean();

    private record Snapshot(Instant at, List<Waiting> all, Map<UUID, Waiting> byJob) {
    }

    public DispatchQueue(JobRepository jobs, List<Backend> backends, TrainyardProperties properties, Clock clock) {
        this.jobs = jobs;
        this.backends = backends;
        this.properties = properties;
        this.clock = clock;
    }

    /** Every queued job (up to {@value #DEPTH} per backend), backend by backend, in dispatch order. */
    public List<Waiting> all() {
        return current().all();
    }

    /** The job's place in its backend's queue, or null when it is not queued (or further back than replayed). */
    public Waiting of(UUID jobId) {
        return current().byJob().get(jobId);
    }

    private Snapshot current() {
        Snapshot now = snapshot;
        long age = clock.millis() - now.at().toEpochMilli();
        if (age < FRESH_MILLIS) {
            return now;
        }
        if (age < STALE_MILLIS) {
            replayInBackground();
            return now;
        }
        return replayNow();
    }

    private synchronized Snapshot replayNow() {
        Instant at = clock.instant();
        if (at.toEpochMilli() - snapshot.at().toEpochMilli() >= FRESH_MILLIS) {
            snapshot = replay(at);
        }
        return snapshot;
    }

    private void replayInBackground() {
        if (!replaying.compareAndSet(false, true)) {
            return;
        }
        Thread.ofVirtual().name("dispatch-queue-replay").start(() -> {
            try {
                replayNow();
            } catch (RuntimeException e) {
                // The database away, say: readers keep the last queue until a replay succeeds or it is too old.
                log.debug("Could not replay the dispatch queue", e);
            } finally {
                replaying.set(false);
            }
        });
    }

    private Snapshot replay(Instant now) {
        List<Waiting> all = new ArrayList<>();
        double ageingSeconds = Math.max(1, properties.priorityAgeing().toSeconds());
        Instant starvedBefore = now.minus(properties.starvationThreshold());
        for (Backend backend : backends) {
            List<Job> queued = jobs.queuedInDispatchOrder(backend.name(), ageingSeconds, DEPTH);
            if (queued.isEmpty()) {
                continue;
            }
            PlacementPass pass = backend.beginPass();
            PlacementPass alone = null; // places a job as if none were ahead of it; renewed once it has placed one
            Job starving = null;
            int position = 0;
            for (Job job : queued) {
                String reason = null;
                Job behind = null;
                if (job.getNotBefore() != null && job.getNotBefore().isAfter(now)) {
                    reason = "backing off before attempt " + job.getAttempt() + " until " + job.getNotBefore();
                } else if (starving != null) {
                    // As the dispatcher does: jobs behind a starving one wait, so running jobs drain until it fits.
                    behind = starving;
                } else {
                    PlacementDecision decision = pass.place(job);
                    reason = switch (decision) {
                        case PlacementDecision.Placed placed -> "fits now: starts at the next dispatch pass";
                        case PlacementDecision.Never never -> "cannot run: " + never.reason();
                        case PlacementDecision.Wait wait -> {
                            alone = alone == null ? backend.beginPass() : alone;
                            if (alone.place(job) instanceof PlacementDecision.Placed) {
                                alone = null;
                                yield "waiting behind higher-priority jobs, which take the free capacity first";
                            }
                            yield wait.reason();
                        }
                    };
                    if (decision instanceof PlacementDecision.Wait && job.getQueuedAt().isBefore(starvedBefore)) {
                        starving = job;
                    }
                }
                all.add(new Waiting(job, ++position, reason, behind));
            }
        }
        Map<UUID, Waiting> byJob = new HashMap<>();
        all.forEach(waiting -> byJob.put(waiting.job().getId(), waiting));
        return new Snapshot(now, List.copyOf(all), byJob);
    }
}

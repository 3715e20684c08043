package io.trainyard.follow;

import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.trainyard.job.JobStateChanged;
import org.springframework.stereotype.Component;
import org.springframework.transaction.event.TransactionalEventListener;

/**
 * Wakes the followers of a job ({@link JobFollowing}) as soon as this server stores new log lines or scalars for it,
 * or the job changes state, so live tails see them within milliseconds instead of a polling interval. What another
 * replica stores is still found by the followers' periodic re-read.
 */
@Component
public class JobWakeUps {

    private final ConcurrentHashMap<UUID, CompletableFuture<Void>> signals = new ConcurrentHashMap<>();

    /** Waits until the job stores something or changes state, or {@code timeoutMillis} pass. */
    public void await(UUID jobId, long timeoutMillis) throws InterruptedException {
        CompletableFuture<Void> signal = signals.computeIfAbsent(jobId, id -> new CompletableFuture<>());
        try {
            signal.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // a quiet interval: the follower re-reads anyway
        }
    }

    public void signal(UUID jobId) {
        CompletableFuture<Void> signal = signals.remove(jobId);
        if (signal != null) {
            signal.complete(null);
        }
    }

    @TransactionalEventListener
    void onStateChanged(JobStateChanged change) {
        signal(change.jobId());
    }
}

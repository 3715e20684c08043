package io.trainyard.dispatch;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.trainyard.backend.Backend;
import io.trainyard.backend.PlacementDecision;
import io.trainyard.backend.PlacementPass;
import io.trainyard.core.BackgroundLoop;
import io.trainyard.core.TrainyardProperties;
import io.trainyard.database.DatabaseFailures;
import io.trainyard.gigl.TaskConfig;
import io.trainyard.job.FailureCause;
import io.trainyard.job.Job;
import io.trainyard.job.JobRepository;
import io.trainyard.job.JobState;
import io.trainyard.job.JobStateChanged;
import io.trainyard.job.JobTransitions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.event.TransactionalEventListener;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Moves queued jobs onto backends. Jobs are claimed inside a transaction with {@code FOR UPDATE SKIP
 * LOCKED}, so several servers sharing one database each claim different jobs; the claim and the move to
 * STARTING commit together, and only then is the run launched. A replica started with
 * {@code trainyard.dispatcher.enabled=false} serves the API only and runs no jobs. The loop runs when woken by
 * a local change and otherwise every {@code dispatchPollInterval}, to pick up work submitted through other
 * replicas.
 */
@Component
@ConditionalOnProperty(name = "trainyard.dispatcher.enabled", matchIfMissing = true)
public class Dispatcher extends BackgroundLoop {

    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);
    private static final int CLAIM_BATCH = 16;

    private final JobRepository jobs;
    private final JobTransitions transitions;
    private final Map<String, Backend> backends;
    private final TransactionTemplate transaction;
    private final TrainyardProperties properties;
    private final Semaphore wakeUps = new Semaphore(0);

    public Dispatcher(JobRepository jobs, JobTransitions transitions, List<Backend> backends,
            PlatformTransactionManager transactionManager, TrainyardProperties properties) {
        super("dispatcher");
        this.jobs = jobs;
        this.transitions = transitions;
        this.backends = backends.stream().collect(Collectors.toMap(Backend::name, Function.identity()));
        this.transaction = new TransactionTemplate(transactionManager);
        this.properties = properties;
    }

    @TransactionalEventListener
    void onStateChanged(JobStateChanged change) {
        if (change.to() == JobState.CANCELLING) {
            Backend backend = backends.get(change.backend());
            if (backend != null) {
                backend.requestCancel(change.jobId());
            }
        }
        // New work, or capacity freed by an ended run.
        if (change.to() == JobState.QUEUED || change.to().isTerminal()) {
            wakeUps.release();
        }
    }

    /** After a restart: each backend re-attaches to, or settles, the runs this node had. */
    @Override
    protected void beforeFirstStep() {
        List<Job> active = jobs.findByNodeIdAndStateIn(properties.nodeId(), JobState.ACTIVE);
        for (Backend backend : backends.values()) {
            List<Job> mine = active.stream().filter(job -> job.getBackend().equals(backend.name())).toList();
            if (!mine.isEmpty()) {
                log.info("Recovering {} {} run(s) of node {}", mine.size(), backend.name(), properties.nodeId());
                backend.recover(mine);
            }
        }
    }

    @Override
    protected void step() throws InterruptedException {
        try {
            forwardCancelsFromOtherReplicas();
            for (Backend backend : backends.values()) {
                while (dispatchBatch(backend)) {
                    // keep going while jobs are placed or settled
                }
            }
            wakeUps.tryAcquire(properties.dispatchPollInterval().toMillis(), TimeUnit.MILLISECONDS);
            wakeUps.drainPermits();
        } catch (RuntimeException e) {
            // The database may be away (DatabaseConnectivity says so once); keep the loop alive and try again.
            if (DatabaseFailures.isUnreachable(e)) {
                log.debug("Dispatch pass failed: {}", e.toString());
            } else {
                log.warn("Dispatch pass failed: {}", e.toString());
            }
            Thread.sleep(1_000);
        }
    }

    /** A cancel made through another replica reaches this node's runs through the database. */
    private void forwardCancelsFromOtherReplicas() {
        for (Job job : jobs.findByNodeIdAndStateIn(properties.nodeId(), List.of(JobState.CANCELLING))) {
            Backend backend = backends.get(job.getBackend());
            if (backend != null) {
                backend.requestCancel(job.getId());
            }
        }
    }

    /**
     * Claims the best queued jobs that fit, up to {@value #CLAIM_BATCH} in one transaction, and launches
     * them once it commits; true if a job was placed or failed for lack of capacity. A batch that placed a job ends
     * before the next job it would fail.
     */
    private boolean dispatchBatch(Backend backend) {
        List<Job> claimed = new ArrayList<>();
        Boolean progressed = transaction.execute(status -> {
            boolean settledAny = false;
            Instant starvedBefore = Instant.now().minus(properties.starvationThreshold());
            double ageingSeconds = Math.max(1, properties.priorityAgeing().toSeconds());
            PlacementPass pass = backend.beginPass();
            for (Job job : jobs.lockQueued(backend.name(), ageingSeconds, CLAIM_BATCH)) {
                if (job.getTask().launchesNothing()) {
                    transitions.succeedQueued(job, TaskConfig.NOTHING_TO_LAUNCH);
                    settledAny = true;
                    continue;
                }
                switch (pass.place(job)) {
                    case PlacementDecision.Placed placed -> {
                        transitions.start(job, placed.node(), placed.placement());
                        claimed.add(job);
                    }
                    case PlacementDecision.Never never -> {
                        if (!claimed.isEmpty()) {
                            // The jobs placed so far launch now; failures, a job's row and event each, are written
                            // by the next batch, so a job that can start never waits behind writing them.
                            return true;
                        }
                        transitions.failQueued(job, FailureCause.NO_CAPACITY, never.reason());
                        settledAny = true;
                    }
                    case PlacementDecision.Wait wait -> {
                        if (job.getQueuedAt().isBefore(starvedBefore)) {
                            // Smaller jobs behind a starving one wait, so running jobs drain until it fits.
                            return settledAny || !claimed.isEmpty();
                        }
                    }
                }
            }
            return settledAny || !claimed.isEmpty();
        });
        claimed.forEach(backend::launch);
        return Boolean.TRUE.equals(progressed);
    }
}

package io.trainyard.job;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

import io.trainyard.validation.ConflictException;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Every change of a job's state, each one transaction that updates the job and appends its event. Changes
 * reported by a run carry the attempt they belong to and are ignored when the job has moved on (fencing):
 * a stale run can never overwrite a newer attempt.
 */
@Service
public class JobTransitions {

    private final JobRepository jobs;
    private final JobEventRepository events;
    private final ApplicationEventPublisher publisher;
    private final Clock clock;

    public JobTransitions(JobRepository jobs, JobEventRepository events, ApplicationEventPublisher publisher,
            Clock clock) {
        this.jobs = jobs;
        this.events = events;
        this.publisher = publisher;
        this.clock = clock;
    }

    /** Stores new jobs, each with its queued event, in one transaction: the stored jobs, in their order. */
    @Transactional
    public List<Job> createAll(List<Job> newJobs) {
        List<Job> saved = jobs.saveAll(newJobs);
        events.saveAll(saved.stream().map(Job::queuedEvent).toList());
        for (Job job : saved) {
            publisher.publishEvent(new JobStateChanged(job.getId(), job.getBackend(), null, JobState.QUEUED, null));
        }
        return saved;
    }

    /** Moves a job locked by the caller's transaction to STARTING on {@code nodeId}. */
    @Transactional
    public void start(Job lockedJob, String nodeId, Placement placement) {
        Instant now = clock.instant();
        lockedJob.assignTo(nodeId, placement);
        apply(lockedJob, JobState.STARTING, null, "placed on " + nodeId, now,
                Duration.between(lockedJob.getQueuedAt(), now));
    }

    /** Ends a job locked by the caller's transaction that has nothing to run, without starting it. */
    @Transactional
    public void succeedQueued(Job lockedJob, String message) {
        apply(lockedJob, JobState.SUCCEEDED, null, message, clock.instant(), null);
    }

    /** Fails a job locked by the caller's transaction before it ever ran. */
    @Transactional
    public void failQueued(Job lockedJob, FailureCause cause, String message) {
        apply(lockedJob, JobState.FAILED, cause, message, clock.instant(), null);
    }

    /**
     * Records that the run's processes started.
     *
     * @return the job's state afterwards (CANCELLING if a cancel arrived while it was starting), or empty
     *     if the attempt is no longer current
     */
    @Transactional
    public Optional<JobState> markRunning(UUID id, int attempt, String runStateJson) {
        return markRunning(id, attempt, runStateJson, Map.of(), null);
    }

    /**
     * Records that the run's processes started, and where its outputs land on the host that runs it
     * (relative output paths resolve under that host's work folder); an empty map keeps the outputs.
     *
     * @param processesStartedAt when the host started them, by its clock (null: now): the job's start time, as its
     *     host's timeout counts from it, rather than when the report reached the database
     */
    @Transactional
    public Optional<JobState> markRunning(UUID id, int attempt, String runStateJson, Map<String, String> outputs,
            @Nullable Instant processesStartedAt) {
        return markRunning(id, attempt, processesStartedAt, job -> {
            job.recordRunState(runStateJson);
            if (!outputs.isEmpty()) {
                job.recordOutputs(outputs);
            }
        });
    }

    /** Records that the run started, and where it runs as the backend learned then (e.g. the hosts Slurm picked). */
    @Transactional
    public Optional<JobState> markRunning(UUID id, int attempt, String runStateJson, Placement placement) {
        return markRunning(id, attempt, null, job -> {
            job.recordRunState(runStateJson);
            job.recordPlacement(placement);
        });
    }

    private Optional<JobState> markRunning(UUID id, int attempt, @Nullable Instant processesStartedAt, Consumer<Job> record) {
        Optional<Job> current = lockAttempt(id, attempt);
        current.ifPresent(job -> {
            record.accept(job);
            if (job.getState() == JobState.STARTING) {
                Instant now = clock.instant();
                Instant claimedAt = job.getUpdatedAt();
                apply(job, JobState.RUNNING, null, "trainer processes started", now, null);
                if (processesStartedAt != null) {
                    job.recordStartedAt(within(processesStartedAt, claimedAt, now));
                }
            }
        });
        return current.map(Job::getState);
    }

    /**
     * Ends the attempt with its outcome, and queues the next attempt when the retry policy says so.
     *
     * @return false when the attempt is no longer current
     */
    @Transactional
    public boolean finish(UUID id, int attempt, RunOutcome outcome) {
        Optional<Job> current = lockAttempt(id, attempt);
        current.ifPresent(job -> {
            Instant now = clock.instant();
            job.recordExitCode(outcome.exitCode());
            apply(job, outcome.state(), outcome.cause(), outcome.message(), now, null);
            if (outcome.state() == JobState.FAILED && job.retriesAfter(outcome.cause())) {
                Instant notBefore = now.plus(job.retryBackoff());
                events.save(job.requeueForRetry(now, notBefore, "automatic retry after " + outcome.cause()
                        + ": attempt " + (job.getAttempt() + 1) + " of " + job.getMaxAttempts() + ", not before " + notBefore));
                publisher.publishEvent(new JobStateChanged(id, job.getBackend(), JobState.FAILED, JobState.QUEUED, null));
            }
        });
        return current.isPresent();
    }

    /**
     * Appends an event that keeps the state (from = to) to the attempt's history, when the attempt is still
     * current and active: what the control plane saw happen around it, such as a database outage.
     */
    @Transactional
    public void note(UUID id, int attempt, String message) {
        lockAttempt(id, attempt).ifPresent(job -> events.save(job.note(message, clock.instant())));
    }

    /** Cancels a job: at once when it has not started, else asks its backend to stop it (CANCELLING). */
    @Transactional
    public Job cancel(UUID id) {
        Job job = jobs.lockById(id).orElseThrow(() -> new JobNotFoundException(id));
        switch (job.getState()) {
            case QUEUED -> apply(job, JobState.CANCELLED, null, "cancelled before it started", clock.instant(), null);
            case STARTING, RUNNING -> apply(job, JobState.CANCELLING, null, "cancel requested", clock.instant(), null);
            case CANCELLING -> { }
            default -> throw new ConflictException("job " + id + " already ended as " + job.getState());
        }
        return job;
    }

    @Transactional
    public Job retry(UUID id) {
        Job job = jobs.lockById(id).orElseThrow(() -> new JobNotFoundException(id));
        if (!job.getState().isTerminal()) {
            throw new ConflictException("job " + id + " is " + job.getState() + "; only an ended job can be retried");
        }
        JobState from = job.getState();
        events.save(job.requeueForRetry(clock.instant()));
        publisher.publishEvent(new JobStateChanged(id, job.getBackend(), from, JobState.QUEUED, null));
        return job;
    }

    /** A host's clock may be off: its time counts only between the claim and the report's arrival. */
    private static Instant within(Instant hostTime, Instant earliest, Instant latest) {
        if (hostTime.isBefore(earliest)) {
            return earliest;
        }
        return hostTime.isAfter(latest) ? latest : hostTime;
    }

    private Optional<Job> lockAttempt(UUID id, int attempt) {
        return jobs.lockById(id)
                .filter(job -> job.getAttempt() == attempt && JobState.ACTIVE.contains(job.getState()));
    }

    private void apply(Job job, JobState to, FailureCause cause, String message, Instant now, Duration waited) {
        JobState from = job.getState();
        events.save(job.moveTo(to, cause, message, now));
        publisher.publishEvent(new JobStateChanged(job.getId(), job.getBackend(), from, to, waited));
    }
}

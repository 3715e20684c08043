package io.trainyard.backend.slurm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

import io.trainyard.agent.logs.FileTailer;
import io.trainyard.agent.metrics.MetricShipper;
import io.trainyard.agent.trainer.WorkFolder;
import io.trainyard.backend.slurm.SlurmCommands.QueuedJob;
import io.trainyard.backend.slurm.SlurmCommands.SlurmException;
import io.trainyard.job.FailureCause;
import io.trainyard.job.JobState;
import io.trainyard.job.JobTransitions;
import io.trainyard.job.RetriedStateChange;
import io.trainyard.job.RunOutcome;
import io.trainyard.logs.LogSink;
import io.trainyard.logs.LogStore;
import io.trainyard.logs.LogWriter;
import io.trainyard.protocol.LogStream;
import io.trainyard.scalars.ScalarIngest;
import io.trainyard.scalars.ScalarStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * Follows one job attempt on the cluster: submits its batch job once (a job already submitted under the attempt's
 * name is followed instead), tails every rank's output files into the job's log from the offsets stored with its
 * lines, and its TensorBoard event files into its scalars from the positions stored with its points; marks it
 * running when Slurm starts it, forwards a cancel and the job's timeout as {@code scancel}, and records how it ended.
 * While the controller cannot be read (restarting, unreachable), the job keeps its state.
 */
final class SlurmRun {

    private static final Logger log = LoggerFactory.getLogger(SlurmRun.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int ACCOUNTING_ASKS = 10;
    private static final Duration ACCOUNTING_WAIT = Duration.ofSeconds(1);
    private static final String UNKNOWN_CANCELLER = "cancelled in Slurm, not through Trainyard; who and why are unknown: ";

    /** What a run needs from its backend. */
    record Services(SlurmCommands commands, SlurmQueue queue, JobTransitions transitions, LogWriter logWriter, LogStore logStore,
            ScalarStore scalars, ScalarIngest scalarIngest) {
    }

    /**
     * A job attempt as the backend hands it over.
     *
     * @param recovered whether a restarted server follows it again (its batch job may exist), not a new attempt
     * @param running whether the job is already RUNNING (a restarted server follows it again)
     * @param tensorboard the folder the trainer writes TensorBoard event files to, or null if it names none
     * @param placement where it was placed: its partition and shape
     */
    record Attempt(UUID jobId, int attempt, boolean recovered, boolean running, WorkFolder folder, Path tensorboard, int ranks,
            SlurmPlacement placement, String script, Runnable prepare, Instant startedAt, Duration timeout) {
    }

    private final Services services;
    private final Attempt attempt;
    private final String name;
    private final List<FileTailer> tailers = new ArrayList<>();
    private LogSink sink;
    private MetricShipper metrics;
    private volatile boolean cancelRequested;
    /** Slurm's reason while its job pends ({@code Resources}, {@code Priority}…); null once it runs. */
    private volatile String pendingReason;
    private boolean cancelSent;
    private boolean timedOut;
    /**
     * Since when the job has run, for its timeout (time pending in Slurm's queue does not count); null while it is not
     * marked RUNNING.
     */
    private Instant runningSince;

    SlurmRun(Services services, Attempt attempt) {
        this.services = services;
        this.attempt = attempt;
        this.name = BatchScript.jobName(attempt.jobId(), attempt.attempt());
        this.runningSince = attempt.running() ? attempt.startedAt() : null;
    }

    void requestCancel() {
        cancelRequested = true;
    }

    /** Runs until the attempt has ended and is recorded, or the thread is interrupted (shutdown). */
    void follow(boolean cancelling) throws InterruptedException {
        cancelRequested |= cancelling;
        services.queue().follow();
        try {
            submitOrFindAgain();
        } finally {
            services.queue().unfollow();
        }
    }

    private void submitOrFindAgain() throws InterruptedException {
        // Only an attempt followed again after a restart may have been submitted before (by a server that died before
        // it could store that). Whether it was is read from a reading of the whole queue begun now, not a squeue of
        // its own: a restart following many jobs costs one call.
        SlurmQueue.Reading before = attempt.recovered() ? answeredReadingAfter(Instant.now()) : null;
        Optional<QueuedJob> existing = before == null ? Optional.empty() : before.named(name);
        long slurmId;
        Instant submittedAt;
        if (existing.isPresent()) {
            slurmId = existing.get().id();
            submittedAt = before.takenAt();
            log.info("Job {} attempt {}: following Slurm job {} again", attempt.jobId(), attempt.attempt(), slurmId);
        } else if (attempt.recovered() && (Files.exists(BatchScript.exitFile(attempt.folder(), attempt.attempt()))
                || Files.exists(BatchScript.output(attempt.folder(), attempt.attempt())))) {
            // Submitted, and ended long enough ago that the controller forgot it (the server was away): its files tell.
            startTailing();
            RunOutcome outcome = outcomeFromFiles("Slurm no longer knows the attempt's job and it left no exit status");
            if (runningSince == null && outcome.state() == JobState.SUCCEEDED) {
                markRunning(null, "");
            }
            settle(outcome);
            return;
        } else if (cancelRequested) {
            settle(RunOutcome.cancelled(null));
            return;
        } else {
            try {
                attempt.prepare().run();
                slurmId = services.commands().submit(attempt.script());
                // After sbatch has answered, not before: a reading begun while it ran may lack the job, which would
                // then look gone from the controller and be failed (and run again) while it runs.
                submittedAt = Instant.now();
            } catch (RuntimeException e) {
                log.warn("Submitting job {} to Slurm failed", attempt.jobId(), e);
                settle(RunOutcome.failed(FailureCause.LAUNCH_ERROR, null, "Slurm refused the batch job: " + e.getMessage()));
                return;
            }
            note("submitted to Slurm as job " + slurmId);
        }
        startTailing();
        watch(slurmId, submittedAt);
    }

    /** The first reading of the queue begun after {@code instant} that the controller answered. */
    private SlurmQueue.Reading answeredReadingAfter(Instant instant) throws InterruptedException {
        SlurmQueue.Reading reading = services.queue().takenAfter(instant);
        while (reading.failure() != null) {
            log.warn("Slurm did not answer for job {}, will read again: {}", attempt.jobId(), reading.failure());
            reading = services.queue().takenAfter(reading.takenAt());
        }
        return reading;
    }

    /** Why Slurm has not started the job yet, as squeue last said; empty once it runs. */
    Optional<String> pendingReason() {
        return Optional.ofNullable(pendingReason);
    }

    private void watch(long slurmId, Instant submittedAt) throws InterruptedException {
        String lastReason = null;
        Instant seen = submittedAt;
        while (true) {
            SlurmQueue.Reading reading = services.queue().takenAfter(seen);
            seen = reading.takenAt();
            if (reading.failure() != null) {
                // The controller is away: the job keeps its state until it answers again.
                continue;
            }
            QueuedJob job = reading.jobs().get(slurmId);
            if (job == null) {
                settle(outcomeFromFiles("Slurm job " + slurmId + " is gone from the controller without an exit status"));
                return;
            }
            SlurmStates.Phase phase = SlurmStates.of(job.state(), job.reason());
            if (phase instanceof SlurmStates.Ended ended) {
                if (runningSince == null && ended.outcome().state() == JobState.SUCCEEDED) {
                    // It ran and ended between two readings: it ran all the same.
                    markRunning(slurmId, job.nodes());
                }
                settle(outcome(slurmId, ended.outcome()));
                return;
            }
            String reason = phase instanceof SlurmStates.Pending pending ? pending.reason() : null;
            pendingReason = SlurmStates.NO_REASON.equals(reason) ? null : reason;
            if (reason != null && !reason.equals(lastReason)) {
                lastReason = reason;
                if (pendingReason != null) {
                    note("Slurm job " + slurmId + " is pending: " + reason);
                }
            }
            if (phase instanceof SlurmStates.Running && runningSince == null) {
                markRunning(slurmId, job.nodes());
            }
            if (!timedOut && runningSince != null && Duration.between(runningSince, Instant.now()).compareTo(attempt.timeout()) > 0) {
                timedOut = true;
                cancelRequested = true;
            }
            if (cancelRequested && !cancelSent) {
                try {
                    services.commands().cancel(slurmId);
                    cancelSent = true;
                } catch (SlurmException e) {
                    log.warn("Cancelling Slurm job {} failed, will retry: {}", slurmId, e.getMessage());
                }
            }
        }
    }

    /**
     * Slurm's outcome, with the exit code the ranks wrote; a job cancelled past its timeout failed with TIMEOUT, and one
     * cancelled by someone else than Trainyard says who and why.
     */
    private RunOutcome outcome(long slurmId, RunOutcome slurmOutcome) throws InterruptedException {
        if (timedOut && slurmOutcome.state() == JobState.CANCELLED) {
            return RunOutcome.failed(FailureCause.TIMEOUT, null, "ran past its timeout of " + attempt.timeout().toSeconds()
                    + " s and was cancelled");
        }
        if (!cancelRequested && slurmOutcome.state() == JobState.CANCELLED) {
            return RunOutcome.cancelledElsewhere(cancelledElsewhere(slurmId));
        }
        if (slurmOutcome.cause() == FailureCause.USER_CODE) {
            Integer exitCode = firstFailedRank();
            return RunOutcome.failed(FailureCause.USER_CODE, exitCode, slurmOutcome.message()
                    + (exitCode == null ? "" : ": a rank exited with " + exitCode));
        }
        return slurmOutcome;
    }

    /**
     * Who cancelled the job in Slurm, and why, as the cluster's accounting says. slurmctld hands a job's end to
     * slurmdbd a moment after squeue shows it, so it is asked a few times.
     */
    private String cancelledElsewhere(long slurmId) throws InterruptedException {
        for (int ask = 0; ask < ACCOUNTING_ASKS; ask++) {
            Optional<SlurmCommands.Cancellation> cancellation;
            try {
                cancellation = services.commands().cancellation(slurmId);
            } catch (SlurmException e) {
                return UNKNOWN_CANCELLER + e.getMessage();
            }
            if (cancellation.isPresent()) {
                return cancellation.get().describe(services.commands().userName(cancellation.get().uid()));
            }
            Thread.sleep(ACCOUNTING_WAIT);
        }
        return UNKNOWN_CANCELLER + "Slurm's accounting had not recorded it after " + ACCOUNTING_ASKS * ACCOUNTING_WAIT.toSeconds() + " s";
    }

    /** The outcome the attempt's files record, for a job the controller no longer knows. */
    private RunOutcome outcomeFromFiles(String lost) {
        Integer status = readExit(BatchScript.exitFile(attempt.folder(), attempt.attempt()));
        if (status == null) {
            return RunOutcome.failed(FailureCause.INFRASTRUCTURE, null, lost);
        }
        if (status == 0) {
            return RunOutcome.succeeded();
        }
        Integer rank = firstFailedRank();
        return RunOutcome.failed(FailureCause.USER_CODE, rank != null ? rank : status, "the Slurm job failed");
    }

    /** The exit status of the first rank that failed, by rank. */
    private Integer firstFailedRank() {
        for (int rank = 0; rank < attempt.ranks(); rank++) {
            Integer status = readExit(attempt.folder().exitFile(attempt.attempt(), rank));
            if (status != null && status != 0) {
                return status;
            }
        }
        return null;
    }

    private static Integer readExit(Path file) {
        try {
            return Integer.parseInt(Files.readString(file).strip());
        } catch (IOException | NumberFormatException e) {
            return null;
        }
    }

    /**
     * Tails every rank's output files into the attempt's log, from the offsets stored with its lines, and its event
     * files into its scalars, from the positions stored with its points.
     */
    private void startTailing() {
        UUID jobId = attempt.jobId();
        int number = attempt.attempt();
        sink = services.logWriter().open(jobId, number);
        Map<String, Long> positions = services.logStore().readPositions(jobId, number);
        for (int rank = 0; rank < attempt.ranks(); rank++) {
            tail(attempt.folder().stdout(number, rank), LogStream.STDOUT, rank, positions);
            tail(attempt.folder().stderr(number, rank), LogStream.STDERR, rank, positions);
        }
        if (attempt.tensorboard() != null) {
            MetricShipper.Delivery intoStore = batch -> persist(() -> {
                services.scalarIngest().store(jobId, number, batch.series(), batch.positions(), batch.skipped());
                return null;
            });
            // Batch numbers and epochs are the agent protocol's; stored here directly, the positions alone resume.
            metrics = new MetricShipper(intoStore, jobId, 0, attempt.tensorboard(), services.scalars().readPositions(jobId, number), 0);
            metrics.start(() -> { });
        }
    }

    private void tail(Path file, LogStream stream, int rank, Map<String, Long> positions) {
        FileTailer tailer = new FileTailer(file, stream, rank, positions.getOrDefault(file.getFileName().toString(), 0L),
                sink::addAll, Long.MAX_VALUE);
        tailer.start();
        tailers.add(tailer);
    }

    /** Stops following on shutdown: Slurm runs on, and the next start resumes the tails from the stored offsets. */
    void abandon() {
        tailers.forEach(FileTailer::abandon);
        if (metrics != null) {
            metrics.abandon();
        }
        if (sink != null) {
            services.logWriter().abandon(sink);
        }
    }

    /**
     * Records that Slurm runs the job, with its id and nodes (in its placement too, where the job page and the CLI
     * show them); a cancel that came meanwhile is forwarded.
     */
    private void markRunning(Long slurmId, String nodes) throws InterruptedException {
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("slurmJobId", slurmId);
        state.put("nodes", nodes);
        String runState = JSON.writeValueAsString(state);
        Optional<JobState> now = persist(() -> slurmId == null
                ? services.transitions().markRunning(attempt.jobId(), attempt.attempt(), runState)
                : services.transitions().markRunning(attempt.jobId(), attempt.attempt(), runState,
                        attempt.placement().running(slurmId, nodes).tagged()));
        runningSince = Instant.now();
        if (now.isEmpty() || now.get() == JobState.CANCELLING) {
            cancelRequested = true;
        }
    }

    private void settle(RunOutcome outcome) throws InterruptedException {
        for (FileTailer tailer : tailers) {
            tailer.finish();
        }
        if (metrics != null) {
            metrics.finish();
        }
        if (sink != null) {
            services.logWriter().close(sink);
        }
        log.info("Job {} attempt {} ({}) ended: {}", attempt.jobId(), attempt.attempt(), name, outcome.state());
        persist(() -> services.transitions().finish(attempt.jobId(), attempt.attempt(), outcome));
    }

    /** Adds to the attempt's history, retried until the database takes it. */
    private void note(String message) throws InterruptedException {
        persist(() -> {
            services.transitions().note(attempt.jobId(), attempt.attempt(), message);
            return null;
        });
    }

    /** The batch job is real: its state change is retried until the database takes it. */
    private <T> T persist(Supplier<T> change) throws InterruptedException {
        return RetriedStateChange.untilStored(attempt.jobId(), change);
    }
}

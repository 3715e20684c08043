package io.trainyard.backend.local;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

import io.trainyard.job.FailureCause;
import io.trainyard.job.RunOutcome;
import io.trainyard.logs.LogSink;

/**
 * Watches one attempt of a job on this host until all its worker processes have exited: stops it on
 * cancel or timeout (SIGTERM to each process group, SIGKILL after the grace period), stops the other
 * workers when one fails (as torchrun does), then drains the logs and decides the outcome.
 */
final class LocalRun {

    private static final long WATCH_INTERVAL_MILLIS = 20;

    private enum StopReason { CANCEL, TIMEOUT, PEER_FAILED }

    private final UUID jobId;
    private final int attempt;
    private final List<WorkerProcess> workers;
    private final List<FileTailer> tailers;
    private final LogSink sink;
    private final Duration timeout;
    private final Instant deadline;
    private final Duration gracePeriod;
    private final List<WorkerProcess> endedInOrder = new ArrayList<>();
    private volatile boolean cancelRequested;
    private StopReason stopReason;
    private Instant killAt;

    LocalRun(UUID jobId, int attempt, List<WorkerProcess> workers, List<FileTailer> tailers, LogSink sink,
            Instant startedAt, Duration timeout, Duration gracePeriod) {
        this.jobId = jobId;
        this.attempt = attempt;
        this.workers = workers;
        this.tailers = tailers;
        this.sink = sink;
        this.timeout = timeout;
        this.deadline = startedAt.plus(timeout);
        this.gracePeriod = gracePeriod;
    }

    UUID jobId() {
        return jobId;
    }

    int attempt() {
        return attempt;
    }

    LogSink sink() {
        return sink;
    }

    List<FileTailer> tailers() {
        return tailers;
    }

    void requestCancel() {
        cancelRequested = true;
    }

    /** Kills the workers at once; the outcome this run then reports is refused as stale. */
    void kill() {
        workers.forEach(worker -> worker.signalGroup("KILL"));
    }

    /**
     * Blocks until every worker has exited, then drains the output files.
     *
     * @param onOutcome receives the outcome once the logs are drained into the sink
     * @throws InterruptedException when the server shuts down: the processes keep running and a restarted
     *     server re-attaches to them
     */
    void watch(Consumer<RunOutcome> onOutcome) throws InterruptedException {
        while (true) {
            for (WorkerProcess worker : workers) {
                if (!worker.isAlive() && !endedInOrder.contains(worker)) {
                    endedInOrder.add(worker);
                }
            }
            if (endedInOrder.size() == workers.size()) {
                break;
            }
            if (stopReason == null) {
                if (cancelRequested) {
                    stop(StopReason.CANCEL);
                } else if (Instant.now().isAfter(deadline)) {
                    stop(StopReason.TIMEOUT);
                } else if (endedInOrder.stream().anyMatch(worker -> !isSuccess(worker.exit()))) {
                    stop(StopReason.PEER_FAILED);
                }
            } else if (killAt != null && Instant.now().isAfter(killAt)) {
                workers.forEach(worker -> worker.signalGroup("KILL"));
                killAt = null;
            }
            Thread.sleep(WATCH_INTERVAL_MILLIS);
        }
        // Anything the trainer forked and left behind in its process group goes with it.
        workers.forEach(WorkerProcess::killGroupRemnants);
        for (FileTailer tailer : tailers) {
            tailer.finish();
        }
        onOutcome.accept(outcome());
    }

    private void stop(StopReason reason) {
        stopReason = reason;
        killAt = Instant.now().plus(gracePeriod);
        workers.forEach(worker -> worker.signalGroup("TERM"));
    }

    private RunOutcome outcome() {
        if (stopReason == StopReason.CANCEL) {
            return RunOutcome.cancelled(workers.getFirst().exit().exitCode());
        }
        if (stopReason == StopReason.TIMEOUT) {
            return RunOutcome.failed(FailureCause.TIMEOUT, null,
                    "stopped after running past its timeout of " + timeout.toSeconds() + "s");
        }
        for (WorkerProcess worker : endedInOrder) {
            WorkerProcess.Exit exit = worker.exit();
            if (exit.launchError() != null) {
                return RunOutcome.failed(FailureCause.LAUNCH_ERROR, null, "rank " + worker.rank() + ": " + exit.launchError());
            }
            if (!exit.recorded()) {
                return RunOutcome.failed(FailureCause.INFRASTRUCTURE, null,
                        "rank " + worker.rank() + " ended without recording an exit status (its supervisor was killed)");
            }
            if (exit.exitCode() != 0) {
                return RunOutcome.failed(FailureCause.USER_CODE, exit.exitCode(),
                        "rank " + worker.rank() + " exited with code " + exit.exitCode());
            }
        }
        return RunOutcome.succeeded();
    }

    private static boolean isSuccess(WorkerProcess.Exit exit) {
        return exit.exitCode() != null && exit.exitCode() == 0;
    }
}

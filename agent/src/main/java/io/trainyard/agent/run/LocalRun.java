package io.trainyard.agent.run;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.trainyard.agent.logs.FileTailer;
import io.trainyard.protocol.RunEnd;

/**
 * Watches one attempt of a job on this host until all its worker processes have exited: stops it on
 * cancel or timeout (SIGTERM to each process group, SIGKILL after the grace period), stops the other
 * workers when one fails (as torchrun does), then drains the logs and decides the outcome.
 */
final class LocalRun {

    private static final long WATCH_INTERVAL_MILLIS = 20;

    private enum StopReason { CANCEL, TIMEOUT, PEER_FAILED }

    private final List<WorkerProcess> workers;
    private final List<FileTailer> tailers;
    private final Duration timeout;
    private final Instant deadline;
    private final Duration gracePeriod;
    /** Added to a launch error: where the agent looked for the program (its trainers' PATH). */
    private final String launchErrorHint;
    private final List<WorkerProcess> endedInOrder = new ArrayList<>();
    private volatile boolean cancelRequested;
    private StopReason stopReason;
    private Instant killAt;

    LocalRun(List<WorkerProcess> workers, List<FileTailer> tailers,
            Instant startedAt, Duration timeout, Duration gracePeriod, String launchErrorHint) {
        this.workers = workers;
        this.tailers = tailers;
        this.timeout = timeout;
        this.deadline = startedAt.plus(timeout);
        this.gracePeriod = gracePeriod;
        this.launchErrorHint = launchErrorHint;
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
     * @return the outcome, once the output files are read to their end
     * @throws InterruptedException when the agent stops: the processes keep running and a restarted agent
     *     re-attaches to them
     */
    RunEnd watch() throws InterruptedException {
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
        return outcome();
    }

    private void stop(StopReason reason) {
        stopReason = reason;
        killAt = Instant.now().plus(gracePeriod);
        workers.forEach(worker -> worker.signalGroup("TERM"));
    }

    private RunEnd outcome() {
        if (stopReason == StopReason.CANCEL) {
            return RunEnd.cancelled(workers.getFirst().exit().exitCode());
        }
        if (stopReason == StopReason.TIMEOUT) {
            return RunEnd.of(RunEnd.Result.TIMED_OUT, null,
                    "stopped after running past its timeout of " + timeout.toSeconds() + "s");
        }
        for (WorkerProcess worker : endedInOrder) {
            WorkerProcess.Exit exit = worker.exit();
            if (exit.launchError() != null) {
                return RunEnd.of(RunEnd.Result.LAUNCH_FAILED, null,
                        "rank " + worker.rank() + ": " + exit.launchError() + launchErrorHint);
            }
            if (!exit.recorded()) {
                return RunEnd.of(RunEnd.Result.LOST, null,
                        "rank " + worker.rank() + " ended without recording an exit status (its supervisor was killed)");
            }
            if (exit.exitCode() != 0) {
                return RunEnd.of(RunEnd.Result.EXITED_WITH_ERROR, exit.exitCode(),
                        "rank " + worker.rank() + " exited with code " + exit.exitCode());
            }
        }
        return RunEnd.succeeded();
    }

    private static boolean isSuccess(WorkerProcess.Exit exit) {
        return exit.exitCode() != null && exit.exitCode() == 0;
    }
}

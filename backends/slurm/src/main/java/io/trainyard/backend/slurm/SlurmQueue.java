package io.trainyard.backend.slurm;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.trainyard.backend.slurm.SlurmCommands.QueuedJob;
import io.trainyard.backend.slurm.SlurmCommands.SlurmException;

/**
 * The controller's view of the backend's jobs, read with one {@code squeue} per poll interval however many jobs run,
 * and only while some run is being followed: many running jobs do not flood the controller. Each {@link SlurmRun}
 * waits for the next reading and looks its own job up in it.
 */
final class SlurmQueue implements Runnable {

    /**
     * One reading of the queue.
     *
     * @param failure why the controller could not be read (it is restarting, unreachable), or null
     */
    record Reading(Instant takenAt, Map<Long, QueuedJob> jobs, String failure) {

        /** The job of this name, if the controller knows it. */
        Optional<QueuedJob> named(String name) {
            return jobs.values().stream().filter(job -> job.name().equals(name)).findFirst();
        }
    }

    private final SlurmCommands commands;
    private final Duration interval;
    private Reading latest = new Reading(Instant.EPOCH, Map.of(), "not read yet");
    private int following;

    SlurmQueue(SlurmCommands commands, Duration interval) {
        this.commands = commands;
        this.interval = interval;
    }

    synchronized void follow() {
        following++;
        notifyAll();
    }

    synchronized void unfollow() {
        following--;
    }

    /** The first reading begun after {@code instant}, waiting for it. */
    synchronized Reading takenAfter(Instant instant) throws InterruptedException {
        while (!latest.takenAt().isAfter(instant)) {
            wait();
        }
        return latest;
    }

    /** Reads the queue every interval while some run is followed; until interrupted. */
    @Override
    public void run() {
        try {
            while (true) {
                synchronized (this) {
                    while (following == 0) {
                        wait();
                    }
                }
                Reading reading = read();
                synchronized (this) {
                    latest = reading;
                    notifyAll();
                }
                Thread.sleep(interval);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Reading read() {
        Instant now = Instant.now();
        try {
            return new Reading(now, commands.queue().stream().collect(Collectors.toMap(QueuedJob::id, Function.identity(),
                    (first, second) -> second)), null);
        } catch (SlurmException e) {
            return new Reading(now, Map.of(), e.getMessage());
        }
    }
}

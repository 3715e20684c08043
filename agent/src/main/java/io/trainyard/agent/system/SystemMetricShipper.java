package io.trainyard.agent.system;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;

import io.trainyard.agent.connection.Redelivery;
import io.trainyard.agent.connection.ServerConnection;
import io.trainyard.agent.connection.ShippingThread;
import io.trainyard.protocol.GpuSample;
import io.trainyard.protocol.ScalarSeries;
import io.trainyard.protocol.ScalarSeriesBuilder;
import io.trainyard.protocol.SystemMetricBatch;
import io.trainyard.protocol.SystemMetricNames;

/**
 * Samples one run's usage every interval (its GPUs from the {@link HostMonitor}, each worker's process tree from
 * {@code /proc}) and ships the samples to the server in {@link SystemMetricBatch}es, each resent until acknowledged.
 * Sampling goes on while the server is away: the samples wait (up to a batch's worth, then new ones are dropped,
 * leaving a gap) and go in the next batches. An agent that stops loses the samples not yet acknowledged, a gap of at most a
 * few intervals; its successor's batches are numbered by time, after them.
 */
public final class SystemMetricShipper {

    /**
     * What waits while the server is away, one batch's worth: 40 minutes of an 8-GPU, 8-worker run sampled every
     * 5 s (64 points a sample).
     */
    private static final int MAX_WAITING_POINTS = SystemMetricBatch.MAX_POINTS_PER_BATCH / 2;

    private final ServerConnection server;
    private final UUID jobId;
    private final int attempt;
    private final long epoch;
    private final Instant startedAt;
    private final Set<Integer> gpus;
    private final List<Worker> workers;
    private final HostMonitor monitor;
    private final Map<String, ScalarSeriesBuilder> waiting = new LinkedHashMap<>();
    private final Map<Integer, Previous> previous = new HashMap<>();
    private int waitingPoints;
    private long lastBatch;
    private volatile boolean finishing;
    private Thread thread;

    /** A worker process of the run, by rank. */
    public record Worker(int rank, ProcessHandle process) {
    }

    /** A worker's CPU time at its previous sample, for its CPU % over the interval. */
    private record Previous(double cpuSeconds, long nanos) {
    }

    /**
     * @param startedAt when the attempt started: a sample's step is milliseconds since then
     * @param gpus the host's indices of the run's GPUs
     */
    public SystemMetricShipper(ServerConnection server, UUID jobId, int attempt, long epoch, Instant startedAt, Set<Integer> gpus,
            List<Worker> workers, HostMonitor monitor) {
        this.server = server;
        this.jobId = jobId;
        this.attempt = attempt;
        this.epoch = epoch;
        this.startedAt = startedAt;
        this.gpus = gpus;
        this.workers = workers;
        this.monitor = monitor;
    }

    /** @param onStale called if the server refuses a batch as stale: the run no longer belongs to this agent */
    public void start(Runnable onStale) {
        thread = ShippingThread.start("system-metrics-" + jobId, this::shipUntilFinished, onStale);
    }

    /** The workers have ended: ships the samples taken, then stops. */
    public void finish() throws InterruptedException {
        finishing = true;
        LockSupport.unpark(thread);
        thread.join();
    }

    /** Stops at once: the agent is stopping. */
    public void abandon() {
        thread.interrupt();
    }

    private void shipUntilFinished() throws InterruptedException {
        long intervalNanos = monitor.interval().toNanos();
        long nextSample = System.nanoTime();
        SystemMetricBatch unsent = null;
        while (true) {
            boolean last = finishing;
            if (!last && System.nanoTime() - nextSample >= 0) {
                sample();
                nextSample += intervalNanos;
            }
            if (unsent == null && waitingPoints > 0) {
                unsent = takeWaiting();
            }
            if (unsent != null) {
                SystemMetricBatch batch = unsent;
                if (last) {
                    Redelivery.untilDelivered("system metrics of job " + jobId, () -> server.systemMetrics(jobId, attempt, batch));
                    unsent = null;
                    continue;
                }
                try {
                    server.systemMetrics(jobId, attempt, batch);
                    unsent = null;
                } catch (IOException e) {
                    // The server is away: this batch goes again at the next interval, the samples meanwhile after it.
                }
            } else if (last) {
                return;
            }
            LockSupport.parkNanos(Math.max(0, nextSample - System.nanoTime()));
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
    }

    private void sample() {
        long nanos = System.nanoTime();
        Instant now = Instant.now();
        long step = Duration.between(startedAt, now).toMillis();
        double wallTime = now.toEpochMilli() / 1000.0;
        if (!gpus.isEmpty()) {
            for (GpuSample gpu : monitor.gpus()) {
                if (!gpus.contains(gpu.index())) {
                    continue;
                }
                add(SystemMetricNames.gpu(gpu.index(), SystemMetricNames.UTILIZATION_PERCENT), step, wallTime, gpu.utilizationPercent());
                add(SystemMetricNames.gpu(gpu.index(), SystemMetricNames.MEMORY_USED_BYTES), step, wallTime,
                        gpu.memoryUsedMiB() == null ? null : gpu.memoryUsedMiB() * 1024.0 * 1024.0);
                add(SystemMetricNames.gpu(gpu.index(), SystemMetricNames.POWER_WATTS), step, wallTime, gpu.powerWatts());
                add(SystemMetricNames.gpu(gpu.index(), SystemMetricNames.TEMPERATURE_CELSIUS), step, wallTime, gpu.temperatureCelsius());
            }
        }
        for (Worker worker : workers) {
            if (!worker.process().isAlive()) {
                continue;
            }
            ProcessUsage usage = ProcessUsage.of(worker.process());
            Previous before = previous.put(worker.rank(), new Previous(usage.cpuSeconds(), nanos));
            if (before != null) {
                double percent = 100 * (usage.cpuSeconds() - before.cpuSeconds()) / ((nanos - before.nanos()) / 1e9);
                // A child that ended took its CPU time with it: the tree's total can fall.
                add(SystemMetricNames.worker(worker.rank(), SystemMetricNames.CPU_PERCENT), step, wallTime, Math.max(0, percent));
            }
            // Nothing resident: the trainer has exited and its supervisor is about to (a 0 would read as a real sample).
            if (usage.rssBytes() > 0) {
                add(SystemMetricNames.worker(worker.rank(), SystemMetricNames.RSS_BYTES), step, wallTime, (double) usage.rssBytes());
            }
            add(SystemMetricNames.worker(worker.rank(), SystemMetricNames.READ_BYTES), step, wallTime,
                    usage.readBytes() == null ? null : usage.readBytes().doubleValue());
            add(SystemMetricNames.worker(worker.rank(), SystemMetricNames.WRITE_BYTES), step, wallTime,
                    usage.writeBytes() == null ? null : usage.writeBytes().doubleValue());
        }
    }

    private void add(String tag, long step, double wallTime, Double value) {
        if (value == null || waitingPoints >= MAX_WAITING_POINTS) {
            return;
        }
        waiting.computeIfAbsent(tag, name -> new ScalarSeriesBuilder(name, 0)).add(step, wallTime, value);
        waitingPoints++;
    }

    /** The waiting samples as the next batch, numbered by the time, rising. */
    private SystemMetricBatch takeWaiting() {
        lastBatch = Math.max(lastBatch + 1, System.currentTimeMillis());
        List<ScalarSeries> series = waiting.values().stream().map(ScalarSeriesBuilder::build).toList();
        waiting.clear();
        waitingPoints = 0;
        return new SystemMetricBatch(epoch, lastBatch, series);
    }
}

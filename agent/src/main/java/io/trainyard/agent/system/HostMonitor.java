package io.trainyard.agent.system;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.trainyard.protocol.GpuSample;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples this host's GPUs every interval on its own thread, for the runs on it and for the heartbeat: one
 * {@code nvidia-smi} call serves all of them, and a slow or hung {@code nvidia-smi} delays no heartbeat. A host
 * without {@code nvidia-smi} (CPU slots, or simulated GPUs) samples none.
 */
public final class HostMonitor {

    private static final Logger log = LoggerFactory.getLogger(HostMonitor.class);
    private static final String FIELDS = "index,utilization.gpu,memory.used,power.draw,temperature.gpu";

    private final NvidiaSmi nvidiaSmi;
    private final Duration interval;
    private volatile GpuReading last = new GpuReading(0, List.of());
    private Thread thread;

    /** @param nvidiaSmi null: the host's GPUs are not sampled */
    public HostMonitor(NvidiaSmi nvidiaSmi, Duration interval) {
        this.nvidiaSmi = nvidiaSmi;
        this.interval = interval;
    }

    /** How often the GPUs, and each run's usage, are sampled. */
    public Duration interval() {
        return interval;
    }

    public boolean samplesGpus() {
        return nvidiaSmi != null;
    }

    /**
     * A sample of every GPU of the host, numbered in the order taken, so a heartbeat carries only one it has not
     * carried yet: number 0 and no GPUs before the first; no GPUs while they cannot be sampled.
     */
    public record GpuReading(long number, List<GpuSample> gpus) {
    }

    /** Every GPU of the host at the last sample; none before the first, or while they cannot be sampled. */
    public List<GpuSample> gpus() {
        return last.gpus();
    }

    public GpuReading lastReading() {
        return last;
    }

    public void start() {
        if (nvidiaSmi != null) {
            thread = Thread.ofVirtual().name("gpu-monitor").start(this::sampleUntilStopped);
        }
    }

    public void stop() {
        if (thread != null) {
            thread.interrupt();
        }
    }

    private void sampleUntilStopped() {
        boolean failing = false;
        try {
            while (true) {
                try {
                    last = new GpuReading(last.number() + 1, parse(nvidiaSmi.query(FIELDS)));
                    if (failing) {
                        log.info("{} answers again: GPU samples resume", nvidiaSmi.command());
                        failing = false;
                    }
                } catch (IOException e) {
                    if (!failing) {
                        log.warn("Cannot sample the GPUs ({}); retrying each interval", e.getMessage());
                        failing = true;
                    }
                    if (!last.gpus().isEmpty()) {
                        last = new GpuReading(last.number() + 1, List.of());
                    }
                }
                Thread.sleep(interval);
            }
        } catch (InterruptedException e) {
            // Stopped.
        }
    }

    /**
     * Rows like {@code 0, 7, 11468, 71.52, 34}; a measure the board does not report reads {@code [N/A]} or
     * {@code [Not Supported]}.
     */
    static List<GpuSample> parse(List<String[]> rows) {
        List<GpuSample> samples = new ArrayList<>(rows.size());
        for (String[] row : rows) {
            if (row.length < 5) {
                continue;
            }
            try {
                Double memory = number(row[2]);
                samples.add(new GpuSample(Integer.parseInt(row[0]), number(row[1]), memory == null ? null : memory.longValue(),
                        number(row[3]), number(row[4])));
            } catch (NumberFormatException e) {
                log.warn("Ignoring an nvidia-smi line I cannot read: {}", String.join(", ", row));
            }
        }
        return samples;
    }

    private static Double number(String field) {
        return field.startsWith("[") || field.isEmpty() ? null : Double.parseDouble(field);
    }
}

package io.trainyard.backend.local;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;

import io.trainyard.agent.Gpu;
import io.trainyard.dispatch.Reservation;

/**
 * The GPUs and CPU slots of this host and which job holds which. A job's workers each take a GPU when
 * the host has enough of them, otherwise a CPU slot, unless the job requires GPUs. A CPU job with more
 * workers than the host has slots still runs, once it has the host to itself: a local job always runs
 * somewhere unless it insists on GPUs.
 */
final class HostSlots {

    private final String node;
    private final List<Gpu> gpus;
    private final int cpuSlots;
    private final TreeSet<Integer> freeGpus = new TreeSet<>();
    private int freeCpuSlots;
    private final Map<UUID, Placement> held = new HashMap<>();

    HostSlots(String node, List<Gpu> gpus, int cpuSlots) {
        this.node = node;
        this.gpus = List.copyOf(gpus);
        this.cpuSlots = cpuSlots;
        this.freeCpuSlots = cpuSlots;
        gpus.forEach(gpu -> freeGpus.add(gpu.index()));
    }

    List<Gpu> gpus() {
        return gpus;
    }

    /** What the job would take, whether or not it is free now; null with {@code reason} set if never. */
    synchronized Placement shapeFor(int workers, boolean requireGpus, StringBuilder reason) {
        if (!gpus.isEmpty() && workers <= gpus.size()) {
            return Placement.onGpus(node, firstGpus(workers, new ArrayList<>(gpus.stream().map(Gpu::index).toList())));
        }
        if (requireGpus) {
            reason.append("the job requires ").append(workers).append(" GPU(s) and host ").append(node)
                    .append(" has ").append(gpus.size());
            return null;
        }
        return Placement.onCpu(node, Math.min(workers, cpuSlots));
    }

    synchronized Reservation reserve(UUID jobId, int workers, boolean requireGpus) {
        StringBuilder reason = new StringBuilder();
        Placement shape = shapeFor(workers, requireGpus, reason);
        if (shape == null) {
            return new Reservation.Never(reason.toString());
        }
        if (shape.usesGpus()) {
            if (freeGpus.size() < workers) {
                return new Reservation.Wait();
            }
            Placement placement = Placement.onGpus(node, firstGpus(workers, new ArrayList<>(freeGpus)));
            take(jobId, placement);
            return new Reservation.Placed(placement.toJson());
        }
        if (freeCpuSlots < shape.cpuSlots()) {
            return new Reservation.Wait();
        }
        take(jobId, shape);
        return new Reservation.Placed(shape.toJson());
    }

    /** Marks a recovered run's resources as held again. */
    synchronized void restore(UUID jobId, Placement placement) {
        if (!held.containsKey(jobId)) {
            take(jobId, placement);
        }
    }

    synchronized void release(UUID jobId) {
        Placement placement = held.remove(jobId);
        if (placement != null) {
            freeGpus.addAll(placement.gpus());
            freeCpuSlots += placement.cpuSlots();
        }
    }

    private void take(UUID jobId, Placement placement) {
        freeGpus.removeAll(placement.gpus());
        freeCpuSlots -= placement.cpuSlots();
        held.put(jobId, placement);
    }

    private static List<Integer> firstGpus(int count, List<Integer> candidates) {
        return candidates.subList(0, count);
    }
}

package io.trainyard.backend.local.placement;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;
import io.trainyard.launch.HostRanks;
import org.jspecify.annotations.NullMarked;

/**
 * What one agent runs of a job: {@code workers} processes from rank {@code firstRank}, one GPU each of
 * {@code gpus}, or on {@code cpuSlots} CPU slots when {@code gpus} is empty.
 */
@Schema(name = "HostShare", description = "One host's share of a job spread over several: its ranks and GPUs or CPU slots")
@NullMarked
public record HostShare(String node, List<Integer> gpus, int cpuSlots, int firstRank, int workers) {

    public HostShare {
        gpus = List.copyOf(gpus);
    }

    /** The ranks of the job's world of {@code worldSize} this share runs, as host number {@code hostIndex}. */
    public HostRanks ranks(int worldSize, int hostIndex) {
        return new HostRanks(firstRank, workers, worldSize, hostIndex);
    }
}

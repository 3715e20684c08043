package io.trainyard.launch;

/**
 * The ranks one host runs of a job's world: {@code workers} processes from {@code firstRank}, of
 * {@code worldSize} in all; {@code hostIndex} numbers the job's hosts from 0, the host of rank 0.
 */
public record HostRanks(int firstRank, int workers, int worldSize, int hostIndex) {

    public HostRanks {
        if (firstRank < 0 || workers < 1 || firstRank + workers > worldSize || hostIndex < 0) {
            throw new IllegalArgumentException("ranks " + firstRank + " to " + (firstRank + workers - 1) + " of a world of "
                    + worldSize + " on host " + hostIndex);
        }
    }

    /** All of a job's workers on one host. */
    public static HostRanks wholeWorld(int workers) {
        return new HostRanks(0, workers, workers, 0);
    }
}

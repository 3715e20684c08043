package io.trainyard.launch;

import java.util.List;
import java.util.Map;

/**
 * GiGL's graph-store mode run as processes of one world: the compute processes (the trainer) take the first ranks,
 * the storage processes the last {@code storageProcesses}, as GiGL numbers its pools (compute first). Each storage
 * process runs {@code graphStoreStorageConfig.command} with its {@code storageArgs}; every process gets
 * {@code COMPUTE_CLUSTER_LOCAL_WORLD_SIZE}, GiGL's trainer processes per compute replica.
 *
 * @param storageCommand the storage program's words
 * @param storageArgs passed as {@code --k=v} to the storage processes, in the config's order, as GiGL passes them
 * @param storageProcesses one per {@code graphStorePool} replica
 * @param computeProcessesPerReplica {@code computeClusterLocalWorldSize}, or what GiGL takes when it is unset
 */
public record GraphStoreProcesses(List<String> storageCommand, Map<String, String> storageArgs, int storageProcesses,
        int computeProcessesPerReplica) {

    public GraphStoreProcesses {
        storageCommand = List.copyOf(storageCommand);
    }

    /** Whether {@code rank} of a world of {@code worldSize} is a storage process. */
    public boolean isStorage(int rank, int worldSize) {
        return rank >= worldSize - storageProcesses;
    }
}

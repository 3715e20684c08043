package io.trainyard.gigl;

import java.util.Map;

/**
 * The parts of a frozen GiGL task config ({@code GbmlConfig}) that decide how a trainer is launched. The
 * YAML text itself is kept unchanged and handed to the trainer; this is only the server's reading of it.
 *
 * @param trainerCommand {@code trainerConfig.command}, the program the in-memory (GLT) path runs
 * @param trainerArgs {@code trainerConfig.trainerArgs}, passed to the trainer as {@code --k=v}
 * @param trainerClsPath {@code trainerConfig.trainerClsPath} or {@code clsPath}, the legacy path's class
 * @param graphStoreStorage {@code trainerConfig.graphStoreStorageConfig}, what a graph-store pool runs; null
 *     when absent
 */
public record TaskConfig(
        TaskKind taskKind,
        String trainerCommand,
        Map<String, String> trainerArgs,
        String trainerClsPath,
        boolean shouldLogToTensorboard,
        boolean shouldRunGltBackend,
        boolean shouldSkipTraining,
        boolean shouldSkipModelEvaluation,
        TrainedModelMetadata trainedModelMetadata,
        GraphStoreStorage graphStoreStorage) {

    /** Why a job whose config skips both training and evaluation succeeds without launching anything. */
    public static final String NOTHING_TO_LAUNCH = "sharedConfig skips both training and model evaluation: GiGL's "
            + "trainer exits without launching anything";

    /**
     * GiGL's trainer exits at once, launching nothing and deleting nothing, when a config skips both
     * training and model evaluation.
     */
    public boolean launchesNothing() {
        return shouldSkipTraining && shouldSkipModelEvaluation;
    }

    /** This config with its {@code trainedModelMetadata} replaced (a template's URIs filled). */
    public TaskConfig withTrainedModelMetadata(TrainedModelMetadata filled) {
        return new TaskConfig(taskKind, trainerCommand, trainerArgs, trainerClsPath, shouldLogToTensorboard,
                shouldRunGltBackend, shouldSkipTraining, shouldSkipModelEvaluation, filled, graphStoreStorage);
    }

    /** {@code graphStoreStorageConfig}: the storage pool's program and its {@code --k=v} arguments. */
    public record GraphStoreStorage(String command, Map<String, String> storageArgs) {
    }
}

package io.trainyard.launch;

import java.util.List;
import java.util.Map;

/**
 * What a job's trainer runs and what a run of it clears first, as the server read it from the job's task config
 * at submission.
 *
 * @param command the program's words: {@code trainerConfig.command} split into words as the backend's GiGL
 *     launcher would, or {@link #LEGACY_TRAINER}
 * @param legacy GiGL's legacy (tabularized) path: the docker URIs are passed, the trainer args are not
 * @param trainerArgs {@code trainerConfig.trainerArgs}, passed as {@code --k=v} on the in-memory path
 * @param images the job's trainer images, the server's defaults applied (either may be null where the server
 *     has none)
 * @param outputs the set {@code trainedModelMetadata} URIs, by field, as the config gives them
 * @param clearsOutputs the run trains: its old outputs and the trainer asset folder are deleted first
 * @param graphStore GiGL's graph-store mode, where a backend starts its storage processes beside the trainer's;
 *     null for a trainer alone
 */
public record TrainerProgram(List<String> command, boolean legacy, Map<String, String> trainerArgs,
        TrainerImages images, Map<String, String> outputs, boolean clearsOutputs, GraphStoreProcesses graphStore) {

    /** GiGL's v1 training process, which its legacy trainer runs instead of {@code trainerConfig.command}. */
    public static final List<String> LEGACY_TRAINER = List.of("python", "-m", "gigl.src.training.v1.lib.training_process");

    public TrainerProgram {
        command = List.copyOf(command);
    }

    /** A trainer alone. */
    public TrainerProgram(List<String> command, boolean legacy, Map<String, String> trainerArgs, TrainerImages images,
            Map<String, String> outputs, boolean clearsOutputs) {
        this(command, legacy, trainerArgs, images, outputs, clearsOutputs, null);
    }
}

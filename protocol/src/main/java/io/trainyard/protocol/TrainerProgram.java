package io.trainyard.protocol;

import java.util.List;
import java.util.Map;

/**
 * What the agent runs for a job and what it clears first, as the server read it from the job's task config
 * at submission; the agent builds the argv and environment of GiGL's trainer contract around it.
 *
 * @param command the program's words: {@code trainerConfig.command} split as a shell would (never run by
 *     one), or GiGL's legacy v1 training module
 * @param legacy GiGL's legacy (tabularized) path: the docker URIs are passed, the trainer args are not
 * @param trainerArgs {@code trainerConfig.trainerArgs}, passed as {@code --k=v} on the in-memory path
 * @param cpuDockerUri the trainer image of CPU pools (the server's default applied), or null
 * @param cudaDockerUri the trainer image of GPU pools (the server's default applied), or null
 * @param outputs the set {@code trainedModelMetadata} URIs, by field, as the config gives them
 * @param clearsOutputs the run trains: its old outputs and the trainer asset folder are deleted first
 */
public record TrainerProgram(List<String> command, boolean legacy, Map<String, String> trainerArgs,
        String cpuDockerUri, String cudaDockerUri, Map<String, String> outputs, boolean clearsOutputs) {
}

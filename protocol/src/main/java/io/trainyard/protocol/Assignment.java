package io.trainyard.protocol;

import java.util.List;
import java.util.UUID;

import io.trainyard.launch.TrainerProgram;

/**
 * A run to start: the job's frozen configs (written for the trainer as they were submitted), the program
 * to run as the server read it from them at submission, and where its workers go on this agent.
 *
 * @param gpus the GPUs of this host the job holds, one worker each; empty when it runs on CPU slots
 * @param workers how many trainer processes to start
 */
public record Assignment(UUID jobId, int attempt, String jobName, String taskConfig, String resourceConfig,
        TrainerProgram program, List<Integer> gpus, int workers, long timeoutSeconds) {
}

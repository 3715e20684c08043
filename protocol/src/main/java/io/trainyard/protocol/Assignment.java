package io.trainyard.protocol;

import java.util.List;
import java.util.UUID;

import io.trainyard.launch.HostRanks;
import io.trainyard.launch.TrainerProgram;

/**
 * A run to start: the job's frozen configs (written for the trainer as they were submitted), the program
 * to run as the server read it from them at submission, and where its workers go on this agent.
 *
 * @param gpus the GPUs of this host the job holds, one worker each; empty when it runs on CPU slots
 * @param ranks the ranks of the job's world this host runs (all of them unless the job spans hosts)
 * @param rendezvous where the job's world meets ({@code host:port}, the first host's), for every host but the
 *     first, which picks it and reports it in {@link Started#rendezvous()}; null on the first host
 */
public record Assignment(UUID jobId, int attempt, String jobName, String taskConfig, String resourceConfig,
        TrainerProgram program, List<Integer> gpus, HostRanks ranks, String rendezvous, long timeoutSeconds) {
}

package io.trainyard.backend.local.agents;

import java.util.List;

import io.trainyard.agent.trainer.CommandWords;
import io.trainyard.gigl.TaskConfig;
import io.trainyard.job.Job;
import io.trainyard.job.TrainerImages;
import io.trainyard.protocol.TrainerProgram;
import org.springframework.stereotype.Component;

/**
 * What an agent runs for a job, from the task config the server read at submission: the in-memory path runs
 * {@code trainerConfig.command}, the legacy path GiGL's v1 training process; images the job names none of
 * are the server's defaults.
 */
@Component
public class TrainerPrograms {

    static final List<String> LEGACY_TRAINER = List.of("python", "-m", "gigl.src.training.v1.lib.training_process");

    private final TrainerImages serverImages;

    public TrainerPrograms(TrainerImages serverImages) {
        this.serverImages = serverImages;
    }

    /** @throws IllegalArgumentException if the command does not split into words (checked at submission) */
    public TrainerProgram of(Job job) {
        TaskConfig task = job.getTask();
        TrainerImages images = job.getImages().orElse(serverImages);
        boolean legacy = !task.shouldRunGltBackend();
        return new TrainerProgram(legacy ? LEGACY_TRAINER : CommandWords.split(task.trainerCommand()), legacy,
                task.trainerArgs(), images.cpuDockerUri(), images.cudaDockerUri(),
                task.trainedModelMetadata().byField(), !task.shouldSkipTraining());
    }
}

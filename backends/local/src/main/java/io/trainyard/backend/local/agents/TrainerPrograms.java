package io.trainyard.backend.local.agents;

import io.trainyard.job.Job;
import io.trainyard.launch.CommandWords;
import io.trainyard.launch.TrainerImages;
import io.trainyard.launch.TrainerProgram;
import org.springframework.stereotype.Component;

/**
 * What an agent runs for a job: {@code trainerConfig.command} split as a shell would split it (agents never run
 * a shell), images the job names none of being the pool's defaults.
 */
@Component
public class TrainerPrograms {

    private final TrainerImages serverImages;

    public TrainerPrograms(TrainerImages serverImages) {
        this.serverImages = serverImages;
    }

    /** @throws IllegalArgumentException if the command does not split into words (checked at submission) */
    public TrainerProgram of(Job job) {
        return job.trainerProgram(serverImages, CommandWords::split);
    }
}

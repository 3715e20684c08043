package io.trainyard.backend.slurm;

import java.util.List;

import io.trainyard.backend.BackendDescription;
import io.trainyard.gigl.TrainerResource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What the Slurm module is, declared whether the backend is on or not ({@link SlurmConfiguration} turns it on): the
 * API document describes its placements, and a submission naming it learns that it is off.
 */
@Configuration(proxyBeanMethods = false)
public class SlurmModule {

    static final BackendDescription DESCRIPTION = new BackendDescription(SlurmBackend.NAME,
            "A Slurm cluster: each job one batch job, a srun task per worker (on when trainyard.slurm.enabled is true)",
            List.of(TrainerResource.Local.KIND), true, true, true, SlurmPlacement.KIND, SlurmPlacement.class, List.of("tensorboard"));

    @Bean
    BackendDescription slurmDescription() {
        return DESCRIPTION;
    }
}

package io.trainyard.backend.slurm;

import io.trainyard.core.TrainyardProperties;
import io.trainyard.job.JobTransitions;
import io.trainyard.logs.LogStore;
import io.trainyard.logs.LogWriter;
import io.trainyard.scalars.ScalarIngest;
import io.trainyard.scalars.ScalarStore;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The Slurm backend, present only when {@code trainyard.slurm.enabled} is true. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "trainyard.slurm.enabled", havingValue = "true")
@EnableConfigurationProperties(SlurmProperties.class)
public class SlurmConfiguration {

    @Bean
    SlurmBackend slurmBackend(SlurmProperties properties, TrainyardProperties trainyard, JobTransitions transitions, LogWriter logWriter,
            LogStore logStore, ScalarStore scalars, ScalarIngest scalarIngest) {
        SlurmCommands commands = new SlurmCommands(CommandHost.of(properties), properties.commandTimeout());
        SlurmQueue queue = new SlurmQueue(commands, properties.pollInterval());
        return new SlurmBackend(properties, trainyard.nodeId(), new SlurmRun.Services(commands, queue, transitions, logWriter, logStore, scalars,
                        scalarIngest),
                new SlurmPartitions(commands::nodes));
    }
}

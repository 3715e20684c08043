package io.trainyard.backend.local;

import io.trainyard.backend.local.agents.AgentProperties;
import io.trainyard.launch.TrainerImages;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({LocalBackendProperties.class, AgentProperties.class})
class LocalBackendConfiguration {

    /** The images agents are told to pass to jobs that name none. */
    @Bean
    TrainerImages defaultTrainerImages(LocalBackendProperties properties) {
        return properties.defaultImages();
    }
}

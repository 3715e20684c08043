package io.trainyard.backend.local;

import io.trainyard.backend.BackendDescription;
import io.trainyard.backend.local.agents.AgentProperties;
import io.trainyard.backend.local.web.AgentProtocolController;
import io.trainyard.launch.TrainerImages;
import org.springdoc.core.models.GroupedOpenApi;
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

    @Bean
    BackendDescription localBackendDescription() {
        return LocalBackend.DESCRIPTION;
    }

    /** The agent protocol, which only agent processes speak, documented apart: /v3/api-docs/agent-protocol. */
    @Bean
    GroupedOpenApi agentProtocol() {
        return GroupedOpenApi.builder()
                .group("agent-protocol")
                .displayName("Agent protocol")
                .addOpenApiMethodFilter(method -> method.getDeclaringClass() == AgentProtocolController.class)
                .build();
    }
}

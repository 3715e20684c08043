package io.trainyard.backend.vertexai;

import java.util.List;

import io.trainyard.backend.BackendDescription;
import io.trainyard.gigl.TrainerResource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What the Vertex AI module is, declared whether the backend is on or not ({@link VertexAiConfiguration} turns it
 * on): the API document describes its placements, which older jobs keep, and a submission it would run learns
 * that it is off rather than that no backend exists.
 */
@Configuration(proxyBeanMethods = false)
public class VertexAiModule {

    static final BackendDescription DESCRIPTION = new BackendDescription(VertexAiBackend.NAME,
            "Google Cloud Vertex AI CustomJobs, as GiGL's launcher creates them (on when trainyard.vertex-ai.project is set)",
            List.of(TrainerResource.VertexAi.KIND, TrainerResource.VertexAiGraphStore.KIND), false, false, false,
            VertexAiPlacement.KIND,
            VertexAiPlacement.class, List.of(VertexLinks.CONSOLE, VertexLinks.TENSORBOARD));

    @Bean
    BackendDescription vertexAiDescription() {
        return DESCRIPTION;
    }
}

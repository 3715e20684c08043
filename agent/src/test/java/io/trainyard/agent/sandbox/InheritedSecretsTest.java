package io.trainyard.agent.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The agent's and the server's secrets are not handed down to trainers with the rest of the environment. */
class InheritedSecretsTest {

    @Test
    void theAgentTokenTheServersSettingsAndAnythingNamedLikeASecretAreRemovedTheRestStays() {
        Map<String, String> environment = new HashMap<>(Map.of("TRAINYARD_AGENT_TOKEN", "tya_x",
                "SPRING_DATASOURCE_PASSWORD", "p", "JAVA_TOOL_OPTIONS", "-Dspring.datasource.password=p",
                "GOOGLE_APPLICATION_CREDENTIALS", "/etc/key.json", "HF_TOKEN", "hf_x", "my_api_key", "k",
                "PATH", "/usr/bin", "LD_LIBRARY_PATH", "/opt/cuda", "GIGL_BIGQUERY_QUOTA_PROJECT", "p",
                "CUDA_HOME", "/opt/cuda"));

        InheritedSecrets.removeFrom(environment);

        assertThat(environment).containsOnlyKeys("PATH", "LD_LIBRARY_PATH", "GIGL_BIGQUERY_QUOTA_PROJECT", "CUDA_HOME");
    }
}

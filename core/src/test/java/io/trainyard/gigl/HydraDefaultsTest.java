package io.trainyard.gigl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import io.trainyard.validation.InvalidRequestException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A config with a Hydra defaults list, composed as GiGL composes it (gigl/common/utils/proto_utils.py
 * read_proto_from_yaml and gigl/common/utils/hydra_config.py compose_yaml_config: local files only, the config's
 * folder as the root) for the lists of GiGL's deployment/configs.
 */
class HydraDefaultsTest {

    @TempDir
    Path root;

    private String compose(String primary) {
        return HydraDefaults.compose("resourceConfigUri", root.resolve("primary.yaml"), primary, (field, file) -> {
            try {
                return Files.readString(file);
            } catch (IOException e) {
                throw new InvalidRequestException(field, "cannot read " + file);
            }
        }).yaml();
    }

    private Map<String, Object> composed(String primary) {
        return SafeYamlParser.parseMapping("composed", compose(primary));
    }

    @Test
    void entriesArePlacedAtTheirPackagesAndLaterOnesOverrideEarlierOnes() throws IOException {
        Files.createDirectories(root.resolve("e2e"));
        Files.writeString(root.resolve("e2e/shared.yaml"), "common_compute_config: {project: p, region: us-central1}\nresource_labels: {team: a}\n");
        Files.writeString(root.resolve("e2e/override.yaml"), "# @package shared_resource_config\nresource_labels: {team: b}\n");

        Map<String, Object> document = composed("""
                defaults:
                  - e2e/shared@shared_resource_config
                  - _self_
                  - e2e/override
                shared_resource_config:
                  common_compute_config: {region: europe-west4}
                trainer_resource_config: {local_trainer_config: {num_workers: 1}}
                """);

        assertThat(document).containsOnlyKeys("shared_resource_config", "trainer_resource_config");
        assertThat(document.get("shared_resource_config")).isEqualTo(Map.of(
                "common_compute_config", Map.of("project", "p", "region", "europe-west4"),
                "resource_labels", Map.of("team", "b")));
    }

    @Test
    void theConfigsOwnKeysComeLastWhenSelfIsNotListed() throws IOException {
        Files.createDirectories(root.resolve("machines"));
        Files.writeString(root.resolve("machines/big.yaml"), "machine_type: n2-highmem-64\nnum_replicas: 2\n");

        Map<String, Object> document = composed("""
                defaults:
                  - machines: big
                machines: {num_replicas: 4}
                """);

        assertThat(document).isEqualTo(Map.of("machines", Map.of("machine_type", "n2-highmem-64", "num_replicas", 4)));
    }

    @Test
    void configsWithoutDefaultsPassUnchangedAndInlineOnesAreNotComposed() {
        String plain = "trainer_resource_config: {local_trainer_config: {num_workers: 1}}\n";
        assertThat(compose(plain)).isSameAs(plain);
        assertThatThrownBy(() -> HydraDefaults.compose("resourceConfig", null, "defaults: [e2e/shared@shared_resource_config]\n",
                (field, file) -> ""))
                .isInstanceOfSatisfying(InvalidRequestException.class,
                        e -> assertThat(e.violations().getFirst().field()).isEqualTo("resourceConfig.defaults"));
        assertThatThrownBy(() -> compose("defaults: [../outside@x]\n"))
                .hasMessageContaining("must name a config in the folder of the config listing it");
    }
}

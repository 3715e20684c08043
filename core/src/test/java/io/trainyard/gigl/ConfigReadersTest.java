package io.trainyard.gigl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.validation.InvalidRequestException;
import io.trainyard.validation.Violation;
import org.junit.jupiter.api.Test;

class ConfigReadersTest {

    static final String COMMON = """
            sharedResourceConfig:
              resourceLabels: {cost_resource_group: gnn}
              commonComputeConfig:
                project: p
                region: us-central1
                tempAssetsBucket: gs://t
                tempRegionalAssetsBucket: gs://r
                permAssetsBucket: gs://p
                tempAssetsBqDatasetName: temp
                embeddingBqDatasetName: embeddings
                gcpServiceAccountEmail: sa@p.iam.gserviceaccount.com
                dataflowRunner: DataflowRunner
            """;

    static ResourceConfig readResource(String yaml) {
        return ResourceConfigReader.read("resourceConfig", yaml, (field, uri) -> {
            throw new InvalidRequestException(field, "no such document: " + uri);
        });
    }

    @Test
    void snakeAndCamelCaseReadTheSameAndYaml11ScalarsAreGiglsTypes() {
        TaskConfig camel = TaskConfigReader.read("taskConfig", """
                taskMetadata: {nodeBasedTaskMetadata: {}}
                featureFlags: {should_run_glt_backend: "True"}
                sharedConfig: {shouldSkipTraining: yes, trainedModelMetadata: {trainedModelUri: m.pt}}
                trainerConfig: {command: python -m trainer, trainerArgs: {main_batch_size: 5_000_000}}
                """);
        TaskConfig snake = TaskConfigReader.read("taskConfig", """
                task_metadata: {node_based_task_metadata: {}}
                feature_flags: {should_run_glt_backend: "true"}
                shared_config: {should_skip_training: yes, trained_model_metadata: {trained_model_uri: m.pt}}
                trainer_config: {command: python -m trainer, trainer_args: {main_batch_size: 5_000_000}}
                """);

        assertThat(snake).isEqualTo(camel);
        assertThat(camel.taskKind()).isEqualTo(TaskKind.NODE_BASED);
        assertThat(camel.shouldRunGltBackend()).isTrue();
        assertThat(camel.shouldSkipTraining()).isTrue();
        assertThat(camel.trainerArgs()).containsEntry("main_batch_size", "5000000");
    }

    @Test
    void theLegacyPathNeedsATrainerClassAndEveryViolationIsReported() {
        assertThatThrownBy(() -> TaskConfigReader.read("taskConfig", """
                taskMetadata: {}
                featureFlags: {should_run_glt_backend: "maybe"}
                sharedConfig: {trainedModelMetadata: {trainedModelUri: "s3://bucket/model"}}
                """))
                .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.violations())
                        .extracting(Violation::field)
                        .containsExactlyInAnyOrder("taskConfig.taskMetadata", "taskConfig.featureFlags.should_run_glt_backend",
                                "taskConfig.sharedConfig.trainedModelMetadata.trainedModelUri",
                                "taskConfig.trainerConfig.trainerClsPath"));
    }

    @Test
    void resourceConfigRulesFollowGigl() {
        ResourceConfig deprecated = readResource(COMMON + """
                trainer_config:
                  vertex_ai_trainer_config: {machine_type: n1-standard-16, gpu_type: NVIDIA_TESLA_T4, gpu_limit: 2, num_replicas: 3}
                """);
        assertThat(deprecated.trainer()).isInstanceOfSatisfying(TrainerResource.VertexAi.class, vertex -> {
            assertThat(vertex.gpuLimit()).isEqualTo(2);
            assertThat(vertex.numReplicas()).isEqualTo(3);
        });

        assertThatThrownBy(() -> readResource(COMMON + """
                trainerResourceConfig:
                  vertexAiTrainerConfig: {machineType: n1-standard-16, gpuType: NVIDIA_TESLA_T4, gpuLimit: 0, numReplicas: 1}
                """)).isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.violations())
                .extracting(Violation::field).containsExactly("resourceConfig.trainerResourceConfig.vertexAiTrainerConfig.gpuLimit"));

        assertThatThrownBy(() -> readResource(COMMON + """
                trainerResourceConfig:
                  localTrainerConfig: {numWorkers: 1}
                  kfpTrainerConfig: {}
                """)).hasMessageContaining(
                        "resourceConfig.trainerResourceConfig: sets localTrainerConfig and kfpTrainerConfig, which are one of a oneof");
    }

    @Test
    void unsafeYamlIsRefused() {
        assertThatThrownBy(() -> SafeYamlParser.parseMapping("taskConfig", "a: !!java.io.File [/etc/passwd]"))
                .isInstanceOf(InvalidRequestException.class);
        assertThatThrownBy(() -> SafeYamlParser.parseMapping("taskConfig", "- just\n- a list\n"))
                .hasMessageContaining("mapping");
        assertThatThrownBy(() -> SafeYamlParser.parseMapping("taskConfig", "a: 1\na: 2\n"))
                .isInstanceOf(InvalidRequestException.class);
    }
}

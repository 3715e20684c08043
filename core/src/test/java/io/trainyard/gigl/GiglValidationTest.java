package io.trainyard.gigl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import io.trainyard.validation.InvalidRequestException;
import io.trainyard.validation.Violation;
import org.junit.jupiter.api.Test;

/**
 * GiGL's own validation of its configs, each rule with the field path of what breaks it and every violation
 * at once; and nothing refused that GiGL accepts.
 */
class GiglValidationTest {

    private static final String SHARED = ConfigReadersTest.COMMON;

    private static ResourceConfig readResource(String yaml, Map<String, String> documents) {
        return ResourceConfigReader.read("resourceConfig", yaml, (field, uri) -> {
            if (!documents.containsKey(uri)) {
                throw new InvalidRequestException(field, "cannot read '" + uri + "'");
            }
            return documents.get(uri);
        });
    }

    private static ResourceConfig readResource(String yaml) {
        return ConfigReadersTest.readResource(yaml);
    }

    private static List<Violation> violationsOf(Runnable reading) {
        try {
            reading.run();
        } catch (InvalidRequestException e) {
            return e.violations();
        }
        throw new AssertionError("expected the config to be refused");
    }

    // GiGL parses YAML into its protos with protobuf's ParseDict (gigl/common/utils/proto_utils.py), which takes
    // proto or JSON names and refuses unknown fields; the fields are those of proto/snapchat/research/gbml/gbml_config.proto
    // and the protos it imports.
    @Test
    void everyFieldOfGiglsTaskConfigIsAcceptedInEitherSpelling() {
        TaskConfig task = TaskConfigReader.read("taskConfig", """
                graphMetadata:
                  nodeTypes: [author, paper]
                  edgeTypes: [{srcNodeType: author, relation: writes, dstNodeType: paper}]
                  condensedEdgeTypeMap: {0: {srcNodeType: author, relation: writes, dstNodeType: paper}}
                  condensed_node_type_map: {0: author, 1: paper}
                taskMetadata:
                  nodeAnchorBasedLinkPredictionTaskMetadata:
                    supervisionEdgeTypes: [{srcNodeType: author, relation: writes, dstNodeType: paper}]
                datasetConfig:
                  dataPreprocessorConfig:
                    dataPreprocessorConfigClsPath: my.Preprocessor
                    dataPreprocessorArgs: {bq_edges_table_name: p.d.edges}
                  subgraphSamplerConfig:
                    numHops: 2
                    num_neighbors_to_sample: 10
                    numPositiveSamples: 1
                    experimentalFlags: {permutation_strategy: deterministic}
                    subgraphSamplingStrategy:
                      messagePassingPaths:
                        paths:
                        - rootNodeType: paper
                          samplingOps:
                          - opName: hop1
                            edgeType: {srcNodeType: author, relation: writes, dstNodeType: paper}
                            randomUniform: {numNodesToSample: 10}
                            samplingDirection: INCOMING
                    graphDbConfig:
                      graphDbIngestionClsPath: my.Ingestion
                      graphDbSamplerConfig: {graphDbClientClassPath: my.Client}
                  splitGeneratorConfig:
                    assignerClsPath: my.Assigner
                    assignerArgs: {seed: "42"}
                    splitStrategyClsPath: my.Strategy
                trainerConfig:
                  trainerClsPath: my.Trainer
                  trainerArgs: {optim_lr: "0.005"}
                  shouldLogToTensorboard: true
                  tensorboardExperimentName: my-experiment
                inferencerConfig:
                  inferencerClsPath: my.Inferencer
                  inferencerArgs: {num_layers: "2"}
                  inferenceBatchSize: 512
                sharedConfig:
                  preprocessedMetadataUri: gs://p/preprocessed_metadata.yaml
                  flattenedGraphMetadata:
                    nodeAnchorBasedLinkPredictionOutput:
                      tfrecordUriPrefix: gs://t/samples/
                      nodeTypeToRandomNegativeTfrecordUriPrefix: {paper: gs://t/negatives/}
                  datasetMetadata:
                    nodeAnchorBasedLinkPredictionDataset: {trainMainDataUri: gs://t/train/}
                  inferenceMetadata:
                    nodeTypeToInferencerOutputInfoMap: {paper: {embeddingsPath: p.d.embeddings}}
                  postprocessedMetadata: {postProcessorLogMetricsUri: gs://p/metrics.json}
                  isGraphDirected: false
                  shouldSkipInference: true
                  should_include_isolated_nodes_in_training: true
                postProcessorConfig: {postProcessorClsPath: my.PostProcessor}
                metricsConfig: {metricsClsPath: my.Metrics, metricsArgs: {k: v}}
                profilerConfig: {shouldEnableProfiler: true, profilerLogDir: gs://p/profiler, profilerArgs: {wait: "0"}}
                featureFlags: {data_preprocessor_num_shards: "2"}
                """);

        assertThat(task.trainerClsPath()).isEqualTo("my.Trainer");
        assertThat(task.taskKind()).isEqualTo(TaskKind.NODE_ANCHOR_BASED_LINK_PREDICTION);
    }

    @Test
    void unknownKeysAreRefusedAtEveryLevelWithTheirPathsAllAtOnce() {
        List<Violation> violations = violationsOf(() -> TaskConfigReader.read("taskConfig", """
                taskMetadata: {nodeBasedTaskMetadata: {supervisionNodeTypes: [paper], labelName: y}}
                trainerConfig: {command: python -m train, trainerArgz: {lr: "0.1"}, trainer_args: {lr: "0.1"}, trainerArgs: {lr: "0.2"}}
                datasetConfig: {splitGeneratorConfig: {splitterArgs: {train_split: "0.8"}}}
                sharedConfig: {trainedModelMetadata: {trainedModelUri: m.pt, modelUri: x.pt}}
                featureFlags: {should_run_glt_backend: "True", anything_goes: "here"}
                inferencer: {}
                """));

        assertThat(violations).extracting(Violation::field).containsExactlyInAnyOrder(
                "taskConfig.taskMetadata.nodeBasedTaskMetadata.labelName",
                "taskConfig.trainerConfig.trainerArgz",
                "taskConfig.trainerConfig.trainerArgs",
                "taskConfig.datasetConfig.splitGeneratorConfig.splitterArgs",
                "taskConfig.sharedConfig.trainedModelMetadata.modelUri",
                "taskConfig.inferencer");
        assertThat(violations).filteredOn(violation -> violation.field().endsWith("splitterArgs")).singleElement()
                .extracting(Violation::message).asString()
                .contains("is not a field of SplitGeneratorConfig", "splitStrategyArgs", "assignerArgs");
        assertThat(violations).filteredOn(violation -> violation.field().equals("taskConfig.trainerConfig.trainerArgs"))
                .singleElement().extracting(Violation::message).isEqualTo("is given twice, as trainer_args and as trainerArgs");
    }

    @Test
    void unknownKeysOfAResourceConfigAreRefusedAndItsOtherSectionsAccepted() {
        String sections = """
                preprocessorConfig:
                  edgePreprocessorConfig: {numWorkers: 1, maxNumWorkers: 4, machineType: n2-standard-16, diskSizeGb: 300}
                subgraphSamplerConfig: {machineType: n2-standard-16, numLocalSsds: 1, numReplicas: 2}
                splitGeneratorConfig: {machineType: n2-standard-16, numLocalSsds: 1, numReplicas: 2}
                inferencerResourceConfig:
                  vertexAiInferencerConfig: {machineType: n1-standard-16, gpuType: NVIDIA_TESLA_T4, gpuLimit: 2, numReplicas: 2}
                trainerResourceConfig:
                  localTrainerConfig: {numWorkers: 2}
                """;
        assertThat(readResource(SHARED + sections).trainer()).isEqualTo(new TrainerResource.Local(2));

        List<Violation> violations = violationsOf(() -> readResource(SHARED.replace("dataflowRunner:", "dataflowRunnr:")
                + sections.replace("numLocalSsds: 1, numReplicas: 2}\nsplit", "numLocalSsds: 1, numReplicas: 2, cores: 8}\nsplit")));
        assertThat(violations).extracting(Violation::field).containsExactlyInAnyOrder(
                "resourceConfig.sharedResourceConfig.commonComputeConfig.dataflowRunnr",
                "resourceConfig.sharedResourceConfig.commonComputeConfig.dataflowRunner",
                "resourceConfig.subgraphSamplerConfig.cores");
    }

    // gigl/src/validation_check/libs/resource_config_checks.py: check_if_shared_resource_config_valid.
    @Test
    void everyCommonComputeFieldGiglsValidatorNeedsIsRequired() {
        List<Violation> violations = violationsOf(() -> readResource("""
                sharedResourceConfig:
                  commonComputeConfig: {project: p, region: us-central1}
                trainerResourceConfig:
                  localTrainerConfig: {numWorkers: 1}
                """));

        String common = "resourceConfig.sharedResourceConfig.commonComputeConfig.";
        assertThat(violations).extracting(Violation::field).containsExactlyInAnyOrder(common + "tempAssetsBucket",
                common + "tempRegionalAssetsBucket", common + "permAssetsBucket", common + "tempAssetsBqDatasetName",
                common + "embeddingBqDatasetName", common + "gcpServiceAccountEmail", common + "dataflowRunner");
    }

    // resource_config_checks.py _validate_machine_config: LocalResourceConfig needs num_workers; a Vertex AI config
    // (each pool of a graph-store one) needs machine_type, gpu_type and num_replicas, and gpu_limit 0 exactly for
    // ACCELERATOR_TYPE_UNSPECIFIED.
    @Test
    void giglsMachineFieldsAreRequiredForLocalAndVertexTrainers() {
        assertThat(violationsOf(() -> readResource(SHARED + "trainerResourceConfig: {localTrainerConfig: {}}\n")))
                .extracting(Violation::field).containsExactly("resourceConfig.trainerResourceConfig.localTrainerConfig.numWorkers");

        String pools = "resourceConfig.trainerResourceConfig.vertexAiGraphStoreTrainerConfig.";
        assertThat(violationsOf(() -> readResource(SHARED + """
                trainerResourceConfig:
                  vertexAiGraphStoreTrainerConfig:
                    graphStorePool: {machineType: n2-highmem-32, numReplicas: 0}
                    computePool: {machineType: n1-standard-16, gpuType: ACCELERATOR_TYPE_UNSPECIFIED, gpuLimit: 2, numReplicas: 1}
                """))).extracting(Violation::field).containsExactlyInAnyOrder(pools + "graphStorePool.gpuType",
                pools + "graphStorePool.numReplicas", pools + "computePool.gpuLimit");
    }

    // gigl/src/common/types/pb_wrappers/gigl_resource_config.py (trainer_config): the deprecated trainer_config is read
    // first and cast to the new kind, so it wins over trainer_resource_config.
    @Test
    void theDeprecatedTrainerConfigWinsWhenBothAreGiven() {
        ResourceConfig resource = readResource(SHARED + """
                trainer_config:
                  local_trainer_config: {num_workers: 3}
                trainer_resource_config:
                  vertex_ai_trainer_config: {machine_type: n1-standard-4, gpu_type: ACCELERATOR_TYPE_UNSPECIFIED, num_replicas: 1}
                """);

        assertThat(resource.trainer()).isEqualTo(new TrainerResource.Local(3));
        // The deprecated Vertex AI kind has the four old fields only.
        assertThat(violationsOf(() -> readResource(SHARED + """
                trainer_config:
                  vertex_ai_trainer_config: {machine_type: n1-standard-4, gpu_type: ACCELERATOR_TYPE_UNSPECIFIED, num_replicas: 1, timeout: 60}
                """))).extracting(Violation::field).containsExactly("resourceConfig.trainerConfig.vertexAiTrainerConfig.timeout");
    }

    // proto/snapchat/research/gbml/gigl_resource_config.proto (oneof shared_resource) and gigl_resource_config.py
    // (shared_resource_config loads shared_resource_config_uri as a SharedResourceConfig).
    @Test
    void aSharedResourceConfigUriIsReadAndCheckedLikeAnInlineOne() {
        String shared = SHARED.replace("sharedResourceConfig:\n", "").stripIndent();
        ResourceConfig resource = readResource("""
                sharedResourceConfigUri: gs://configs/shared.yaml
                trainerResourceConfig:
                  localTrainerConfig: {numWorkers: 1}
                """, Map.of("gs://configs/shared.yaml", shared));
        assertThat(resource.commonComputeConfig().permAssetsBucket()).isEqualTo("gs://p");
        assertThat(resource.resourceLabels()).containsEntry("cost_resource_group", "gnn");

        assertThat(violationsOf(() -> readResource("""
                sharedResourceConfigUri: gs://configs/shared.yaml
                trainerResourceConfig:
                  localTrainerConfig: {numWorkers: 1}
                """, Map.of("gs://configs/shared.yaml", shared.replace("project: p", "projekt: p")))))
                .extracting(Violation::field).containsExactlyInAnyOrder(
                        "resourceConfig.sharedResourceConfigUri.commonComputeConfig.projekt",
                        "resourceConfig.sharedResourceConfigUri.commonComputeConfig.project");
        assertThat(violationsOf(() -> readResource("sharedResourceConfigUri: gs://configs/missing.yaml\n"
                + SHARED + "trainerResourceConfig: {localTrainerConfig: {numWorkers: 1}}\n")))
                .extracting(Violation::field).containsExactly("resourceConfig");
    }

    // proto/snapchat/research/gbml/gbml_config.proto: TrainerConfig's cls_path and command are the oneof executable;
    // the deprecated trainer_cls_path is outside it, so GiGL accepts it beside a command.
    @Test
    void clsPathAndCommandAreAOneofButTrainerClsPathMayStandBesideACommand() {
        assertThat(violationsOf(() -> TaskConfigReader.read("taskConfig", """
                taskMetadata: {nodeBasedTaskMetadata: {}}
                featureFlags: {should_run_glt_backend: "True"}
                trainerConfig: {clsPath: my.Trainer, command: python -m train}
                """))).singleElement().satisfies(violation -> {
                    assertThat(violation.field()).isEqualTo("taskConfig.trainerConfig");
                    assertThat(violation.message()).contains("clsPath and command", "oneof");
                });

        TaskConfig both = TaskConfigReader.read("taskConfig", """
                taskMetadata: {nodeBasedTaskMetadata: {}}
                featureFlags: {should_run_glt_backend: "True"}
                trainerConfig: {trainerClsPath: my.Trainer, command: python -m train}
                """);
        assertThat(both.trainerCommand()).isEqualTo("python -m train");
    }

    // gigl/src/validation_check/libs/gbml_and_resource_config_compatibility_checks.py
    // (check_trainer_graph_store_compatibility): graph-store mode in both configs or in neither.
    @Test
    void graphStoreModeMustBeSetInBothConfigsOrInNeither() {
        TaskConfig singlePoolTask = TaskConfigReader.read("taskConfig", """
                taskMetadata: {nodeBasedTaskMetadata: {}}
                featureFlags: {should_run_glt_backend: "True"}
                trainerConfig: {command: python -m train}
                """);
        TaskConfig graphStoreTask = TaskConfigReader.read("taskConfig", """
                taskMetadata: {nodeBasedTaskMetadata: {}}
                featureFlags: {should_run_glt_backend: "True"}
                trainerConfig:
                  command: python -m train
                  graphStoreStorageConfig: {command: python -m storage_main}
                """);
        ResourceConfig singlePool = readResource(SHARED + """
                trainerResourceConfig:
                  vertexAiTrainerConfig: {machineType: n1-standard-4, gpuType: ACCELERATOR_TYPE_UNSPECIFIED, numReplicas: 1}
                """);
        ResourceConfig graphStore = readResource(SHARED + """
                trainerResourceConfig:
                  vertexAiGraphStoreTrainerConfig:
                    graphStorePool: {machineType: n2-highmem-32, gpuType: ACCELERATOR_TYPE_UNSPECIFIED, numReplicas: 1}
                    computePool: {machineType: n1-standard-16, gpuType: ACCELERATOR_TYPE_UNSPECIFIED, numReplicas: 1}
                """);

        assertThat(GiglCompatibility.check(graphStoreTask, singlePool)).singleElement().satisfies(violation -> {
            assertThat(violation.field()).isEqualTo("taskConfig.trainerConfig.graphStoreStorageConfig");
            assertThat(violation.message()).contains("vertexAiTrainerConfig", "must be vertexAiGraphStoreTrainerConfig");
        });
        assertThat(GiglCompatibility.check(singlePoolTask, graphStore)).singleElement().satisfies(violation -> {
            assertThat(violation.field()).isEqualTo("taskConfig.trainerConfig.graphStoreStorageConfig");
            assertThat(violation.message()).contains("is required by resourceConfig.trainerResourceConfig.vertexAiGraphStoreTrainerConfig");
        });
        assertThat(GiglCompatibility.check(graphStoreTask, graphStore)).isEmpty();
        assertThat(GiglCompatibility.check(singlePoolTask, singlePool)).isEmpty();
    }

    // gigl/src/training/trainer.py: Trainer.run returns before anything else when both are skipped.
    @Test
    void aConfigSkippingTrainingAndEvaluationLaunchesNothing() {
        TaskConfig skipsBoth = TaskConfigReader.read("taskConfig", """
                taskMetadata: {nodeBasedTaskMetadata: {}}
                sharedConfig: {shouldSkipTraining: true, shouldSkipModelEvaluation: true}
                """);
        TaskConfig skipsTraining = TaskConfigReader.read("taskConfig", """
                taskMetadata: {nodeBasedTaskMetadata: {}}
                sharedConfig: {shouldSkipTraining: true}
                """);

        assertThat(skipsBoth.launchesNothing()).isTrue();
        assertThat(skipsTraining.launchesNothing()).isFalse();
    }
}

package io.trainyard.gigl;

/**
 * The messages of GiGL's task config ({@code GbmlConfig}, gbml_config.proto and the protos it imports) and
 * resource config ({@code GiglResourceConfig}, gigl_resource_config.proto): every field GiGL's parser
 * accepts, so a GiGL config is accepted whole, sections Trainyard never reads included. Where GiGL's
 * releases differ (the custom launcher's fields, the Vertex AI TensorBoard and reservation fields), the
 * fields of each are accepted.
 */
final class GiglProtos {

    private GiglProtos() {
    }

    private static final ProtoMessage EDGE_TYPE = ProtoMessage.named("EdgeType")
            .scalars("relation", "src_node_type", "dst_node_type");

    private static final ProtoMessage GRAPH_METADATA = ProtoMessage.named("GraphMetadata")
            .scalarLists("node_types")
            .messageList("edge_types", EDGE_TYPE)
            .messageMap("condensed_edge_type_map", EDGE_TYPE)
            .maps("condensed_node_type_map");

    private static final ProtoMessage TASK_METADATA = ProtoMessage.named("GbmlConfig.TaskMetadata")
            .message("node_based_task_metadata", ProtoMessage.named("NodeBasedTaskMetadata").scalarLists("supervision_node_types"))
            .message("node_anchor_based_link_prediction_task_metadata",
                    ProtoMessage.named("NodeAnchorBasedLinkPredictionTaskMetadata").messageList("supervision_edge_types", EDGE_TYPE))
            .message("link_based_task_metadata",
                    ProtoMessage.named("LinkBasedTaskMetadata").messageList("supervision_edge_types", EDGE_TYPE))
            .oneof("node_based_task_metadata", "node_anchor_based_link_prediction_task_metadata", "link_based_task_metadata");

    private static final ProtoMessage LABELED_OUTPUT = ProtoMessage.named("SupervisedTaskOutput")
            .scalars("labeled_tfrecord_uri_prefix", "unlabeled_tfrecord_uri_prefix");

    private static final ProtoMessage SPLIT_DATASET = ProtoMessage.named("SplitDataset")
            .scalars("train_data_uri", "val_data_uri", "test_data_uri");

    private static final ProtoMessage SHARED_CONFIG = ProtoMessage.named("GbmlConfig.SharedConfig")
            .scalars("preprocessed_metadata_uri", "is_graph_directed", "should_skip_training",
                    "should_skip_automatic_temp_asset_cleanup", "should_skip_inference", "should_skip_model_evaluation",
                    "should_include_isolated_nodes_in_training")
            .message("flattened_graph_metadata", ProtoMessage.named("FlattenedGraphMetadata")
                    .message("supervised_node_classification_output", LABELED_OUTPUT)
                    .message("node_anchor_based_link_prediction_output", ProtoMessage.named("NodeAnchorBasedLinkPredictionOutput")
                            .scalars("tfrecord_uri_prefix").maps("node_type_to_random_negative_tfrecord_uri_prefix"))
                    .message("supervised_link_based_task_output", LABELED_OUTPUT))
            .message("dataset_metadata", ProtoMessage.named("DatasetMetadata")
                    .message("supervised_node_classification_dataset", SPLIT_DATASET)
                    .message("node_anchor_based_link_prediction_dataset", ProtoMessage.named("NodeAnchorBasedLinkPredictionDataset")
                            .scalars("train_main_data_uri", "val_main_data_uri", "test_main_data_uri")
                            .maps("train_node_type_to_random_negative_data_uri", "val_node_type_to_random_negative_data_uri",
                                    "test_node_type_to_random_negative_data_uri"))
                    .message("supervised_link_based_task_dataset", SPLIT_DATASET))
            .message("trained_model_metadata", ProtoMessage.named("TrainedModelMetadata")
                    .scalars("trained_model_uri", "scripted_model_uri", "eval_metrics_uri", "tensorboard_logs_uri"))
            .message("inference_metadata", ProtoMessage.named("InferenceMetadata")
                    .messageMap("node_type_to_inferencer_output_info_map",
                            ProtoMessage.named("InferenceOutput").scalars("embeddings_path", "predictions_path")))
            .message("postprocessed_metadata", ProtoMessage.named("PostProcessedMetadata").scalars("post_processor_log_metrics_uri"))
            .maps("shared_args");

    private static final ProtoMessage RANDOM_UNIFORM = ProtoMessage.named("RandomUniform").scalars("num_nodes_to_sample");

    private static final ProtoMessage SAMPLING_OP = ProtoMessage.named("SamplingOp")
            .scalars("op_name", "sampling_direction")
            .message("edge_type", EDGE_TYPE)
            .scalarLists("input_op_names")
            .message("random_uniform", RANDOM_UNIFORM)
            .message("random_weighted", ProtoMessage.named("RandomWeighted").scalars("num_nodes_to_sample", "edge_feat_name"))
            .message("top_k", ProtoMessage.named("TopK").scalars("num_nodes_to_sample", "edge_feat_name"))
            .message("user_defined", ProtoMessage.named("UserDefined").scalars("path_to_udf").maps("params"))
            .oneof("random_uniform", "random_weighted", "top_k", "user_defined");

    private static final ProtoMessage SUBGRAPH_SAMPLING_STRATEGY = ProtoMessage.named("SubgraphSamplingStrategy")
            .message("message_passing_paths", ProtoMessage.named("MessagePassingPathStrategy")
                    .messageList("paths", ProtoMessage.named("MessagePassingPath")
                            .scalars("root_node_type").messageList("sampling_ops", SAMPLING_OP)))
            .message("global_random_uniform", ProtoMessage.named("GlobalRandomUniformStrategy")
                    .scalars("num_hops").message("random_uniform_spec", RANDOM_UNIFORM))
            .oneof("message_passing_paths", "global_random_uniform");

    private static final ProtoMessage DATASET_CONFIG = ProtoMessage.named("GbmlConfig.DatasetConfig")
            .message("data_preprocessor_config", ProtoMessage.named("DataPreprocessorConfig")
                    .scalars("data_preprocessor_config_cls_path").maps("data_preprocessor_args"))
            .message("subgraph_sampler_config", ProtoMessage.named("SubgraphSamplerConfig")
                    .scalars("num_hops", "num_neighbors_to_sample", "num_positive_samples", "num_max_training_samples_to_output",
                            "num_user_defined_positive_samples", "num_user_defined_negative_samples")
                    .message("subgraph_sampling_strategy", SUBGRAPH_SAMPLING_STRATEGY)
                    .maps("experimental_flags")
                    .message("graph_db_config", ProtoMessage.named("GbmlConfig.GraphDBConfig")
                            .scalars("graph_db_ingestion_cls_path")
                            .maps("graph_db_ingestion_args", "graph_db_args")
                            .message("graph_db_sampler_config", ProtoMessage.named("GraphDBServiceConfig")
                                    .scalars("graph_db_client_class_path"))))
            .message("split_generator_config", ProtoMessage.named("SplitGeneratorConfig")
                    .scalars("split_strategy_cls_path", "assigner_cls_path")
                    .maps("split_strategy_args", "assigner_args"));

    private static final ProtoMessage GRAPH_STORE_STORAGE_CONFIG = ProtoMessage.named("GbmlConfig.GraphStoreStorageConfig")
            .scalars("command").maps("storage_args");

    private static final ProtoMessage TRAINER_CONFIG = ProtoMessage.named("GbmlConfig.TrainerConfig")
            .scalars("trainer_cls_path", "cls_path", "command", "should_log_to_tensorboard", "tensorboard_experiment_name")
            .maps("trainer_args")
            .message("graph_store_storage_config", GRAPH_STORE_STORAGE_CONFIG)
            .oneof("cls_path", "command");

    private static final ProtoMessage INFERENCER_CONFIG = ProtoMessage.named("GbmlConfig.InferencerConfig")
            .maps("inferencer_args")
            .scalars("inferencer_cls_path", "cls_path", "command", "inference_batch_size")
            .message("graph_store_storage_config", GRAPH_STORE_STORAGE_CONFIG)
            .oneof("cls_path", "command");

    /** {@code GbmlConfig}: a task config, template or frozen. */
    static final ProtoMessage GBML_CONFIG = ProtoMessage.named("GbmlConfig")
            .message("task_metadata", TASK_METADATA)
            .message("graph_metadata", GRAPH_METADATA)
            .message("shared_config", SHARED_CONFIG)
            .message("dataset_config", DATASET_CONFIG)
            .message("trainer_config", TRAINER_CONFIG)
            .message("inferencer_config", INFERENCER_CONFIG)
            .message("post_processor_config", ProtoMessage.named("GbmlConfig.PostProcessorConfig")
                    .maps("post_processor_args").scalars("post_processor_cls_path"))
            .message("metrics_config", ProtoMessage.named("GbmlConfig.MetricsConfig")
                    .scalars("metrics_cls_path").maps("metrics_args"))
            .message("profiler_config", ProtoMessage.named("GbmlConfig.ProfilerConfig")
                    .scalars("should_enable_profiler", "profiler_log_dir").maps("profiler_args"))
            .maps("feature_flags");

    private static final ProtoMessage DATAFLOW_RESOURCE_CONFIG = ProtoMessage.named("DataflowResourceConfig")
            .scalars("num_workers", "max_num_workers", "machine_type", "disk_size_gb", "timeout");

    private static final ProtoMessage SPARK_RESOURCE_CONFIG = ProtoMessage.named("SparkResourceConfig")
            .scalars("machine_type", "num_local_ssds", "num_replicas");

    private static final ProtoMessage VERTEX_AI_RESOURCE_CONFIG = ProtoMessage.named("VertexAiResourceConfig")
            .scalars("machine_type", "gpu_type", "gpu_limit", "num_replicas", "timeout", "gcp_region_override",
                    "scheduling_strategy", "boot_disk_size_gb", "tensorboard_resource_name", "tensorboard_experiment_name")
            .message("reservation_affinity", ProtoMessage.named("VertexAiReservationAffinity")
                    .scalars("type").scalarLists("reservation_resource_names"));

    private static final ProtoMessage KFP_RESOURCE_CONFIG = ProtoMessage.named("KFPResourceConfig")
            .scalars("cpu_request", "memory_request", "gpu_type", "gpu_limit", "num_replicas");

    private static final ProtoMessage LOCAL_RESOURCE_CONFIG = ProtoMessage.named("LocalResourceConfig").scalars("num_workers");

    private static final ProtoMessage VERTEX_AI_GRAPH_STORE_CONFIG = ProtoMessage.named("VertexAiGraphStoreConfig")
            .message("graph_store_pool", VERTEX_AI_RESOURCE_CONFIG)
            .message("compute_pool", VERTEX_AI_RESOURCE_CONFIG)
            .scalars("compute_cluster_local_world_size");

    private static final ProtoMessage CUSTOM_RESOURCE_CONFIG = ProtoMessage.named("CustomResourceConfig")
            .scalars("command", "launcher_fn").scalarLists("args").maps("launcher_args");

    /** {@code SharedResourceConfig}: inline in a resource config, or the document {@code shared_resource_config_uri} names. */
    static final ProtoMessage SHARED_RESOURCE_CONFIG = ProtoMessage.named("SharedResourceConfig")
            .maps("resource_labels")
            .message("common_compute_config", ProtoMessage.named("SharedResourceConfig.CommonComputeConfig")
                    .scalars("project", "region", "temp_assets_bucket", "temp_regional_assets_bucket", "perm_assets_bucket",
                            "temp_assets_bq_dataset_name", "embedding_bq_dataset_name", "gcp_service_account_email",
                            "dataflow_runner"));

    /** The deprecated {@code trainer_config} of a resource config, with the deprecated (smaller) kinds. */
    static final ProtoMessage DISTRIBUTED_TRAINER_CONFIG = ProtoMessage.named("DistributedTrainerConfig")
            .message("vertex_ai_trainer_config", ProtoMessage.named("VertexAiTrainerConfig")
                    .scalars("machine_type", "gpu_type", "gpu_limit", "num_replicas"))
            .message("kfp_trainer_config", KFP_RESOURCE_CONFIG)
            .message("local_trainer_config", LOCAL_RESOURCE_CONFIG)
            .oneof("vertex_ai_trainer_config", "kfp_trainer_config", "local_trainer_config");

    /** {@code GiglResourceConfig}: a resource config. */
    static final ProtoMessage GIGL_RESOURCE_CONFIG = ProtoMessage.named("GiglResourceConfig")
            .scalars("shared_resource_config_uri")
            .message("shared_resource_config", SHARED_RESOURCE_CONFIG)
            .oneof("shared_resource_config_uri", "shared_resource_config")
            .message("preprocessor_config", ProtoMessage.named("DataPreprocessorConfig")
                    .message("edge_preprocessor_config", DATAFLOW_RESOURCE_CONFIG)
                    .message("node_preprocessor_config", DATAFLOW_RESOURCE_CONFIG))
            .message("subgraph_sampler_config", SPARK_RESOURCE_CONFIG)
            .message("split_generator_config", SPARK_RESOURCE_CONFIG)
            .message("trainer_config", DISTRIBUTED_TRAINER_CONFIG)
            .message("inferencer_config", DATAFLOW_RESOURCE_CONFIG)
            .message("trainer_resource_config", ProtoMessage.named("TrainerResourceConfig")
                    .message("vertex_ai_trainer_config", VERTEX_AI_RESOURCE_CONFIG)
                    .message("kfp_trainer_config", KFP_RESOURCE_CONFIG)
                    .message("local_trainer_config", LOCAL_RESOURCE_CONFIG)
                    .message("vertex_ai_graph_store_trainer_config", VERTEX_AI_GRAPH_STORE_CONFIG)
                    .message("custom_trainer_config", CUSTOM_RESOURCE_CONFIG)
                    .oneof("vertex_ai_trainer_config", "kfp_trainer_config", "local_trainer_config",
                            "vertex_ai_graph_store_trainer_config", "custom_trainer_config"))
            .message("inferencer_resource_config", ProtoMessage.named("InferencerResourceConfig")
                    .message("vertex_ai_inferencer_config", VERTEX_AI_RESOURCE_CONFIG)
                    .message("dataflow_inferencer_config", DATAFLOW_RESOURCE_CONFIG)
                    .message("local_inferencer_config", LOCAL_RESOURCE_CONFIG)
                    .message("vertex_ai_graph_store_inferencer_config", VERTEX_AI_GRAPH_STORE_CONFIG)
                    .message("custom_inferencer_config", CUSTOM_RESOURCE_CONFIG)
                    .oneof("vertex_ai_inferencer_config", "dataflow_inferencer_config", "local_inferencer_config",
                            "vertex_ai_graph_store_inferencer_config", "custom_inferencer_config"));
}

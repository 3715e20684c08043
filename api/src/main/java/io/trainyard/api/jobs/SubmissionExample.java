package io.trainyard.api.jobs;

/**
 * The submission the document shows as an example (and contract tests send): a one-worker local job whose
 * trainer prints one line, with both configs inline.
 */
final class SubmissionExample {

    static final String JSON = "{\"jobName\": \"example_job\", \"taskConfig\": \"taskMetadata:\\n"
            + "  nodeAnchorBasedLinkPredictionTaskMetadata:\\n    supervisionEdgeTypes: []\\nfeatureFlags:\\n"
            + "  should_run_glt_backend: \\\"True\\\"\\nsharedConfig:\\n  trainedModelMetadata:\\n"
            + "    trainedModelUri: outputs/model.pt\\ntrainerConfig:\\n  command: python3 -c 'print(\\\"trained\\\")'\\n"
            + "\", \"resourceConfig\": \"shared_resource_config:\\n  resource_labels:\\n    cost_resource_group: examples\\n"
            + "  common_compute_config:\\n    project: example-project\\n    region: us-central1\\n"
            + "    temp_assets_bucket: gs://example-temp\\n    temp_regional_assets_bucket: gs://example-temp-regional\\n"
            + "    perm_assets_bucket: gs://example-perm\\n    temp_assets_bq_dataset_name: example_temp\\n"
            + "    embedding_bq_dataset_name: example_embeddings\\n"
            + "    gcp_service_account_email: trainer@example-project.iam.gserviceaccount.com\\n"
            + "    dataflow_runner: DirectRunner\\ntrainer_resource_config:\\n  local_trainer_config:\\n    num_workers: 1\\n"
            + "\", \"labels\": {\"team\": \"graphs\"}}";

    private SubmissionExample() {
    }
}

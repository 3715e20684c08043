package io.trainyard.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.trainyard.client.ApiClient;
import io.trainyard.client.model.JobSubmission;

/** GiGL configs and submission bodies for tests: a trainer that is a small Python program. */
public final class JobBodies {

    private JobBodies() {
    }

    public static final String RESOURCE_CONFIG = """
            shared_resource_config:
              resource_labels:
                cost_resource_group: trainyard-tests
              common_compute_config:
                project: test-project
                region: us-central1
                temp_assets_bucket: gs://test-temp
                temp_regional_assets_bucket: gs://test-temp-regional
                perm_assets_bucket: gs://test-perm
                temp_assets_bq_dataset_name: trainyard_tests_temp
                embedding_bq_dataset_name: trainyard_tests_embeddings
                gcp_service_account_email: trainer@test-project.iam.gserviceaccount.com
                dataflow_runner: DirectRunner
            trainer_resource_config:
              local_trainer_config:
                num_workers: %d
            """;

    /** A task config on the in-memory path whose trainer runs {@code python3 -c <program>}. */
    public static String taskConfig(String pythonProgram, String trainedModelUri) {
        // exec("...") keeps the program on one line: YAML would fold its newlines into spaces.
        String literal = pythonProgram.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
        String command = "python3 -u -c 'exec(\"" + literal.replace("'", "'\"'\"'") + "\")'";
        return """
                taskMetadata:
                  nodeAnchorBasedLinkPredictionTaskMetadata:
                    supervisionEdgeTypes: []
                featureFlags:
                  should_run_glt_backend: "True"
                sharedConfig:
                  trainedModelMetadata:
                    trainedModelUri: %s
                trainerConfig:
                  command: %s
                  trainerArgs:
                    learning_rate: "0.01"
                """.formatted(trainedModelUri, yamlQuoted(command));
    }

    public static JobSubmission job(String name, String pythonProgram) {
        return job(name, pythonProgram, 1);
    }

    public static JobSubmission job(String name, String pythonProgram, int workers) {
        return new JobSubmission().jobName(name).taskConfig(taskConfig(pythonProgram, "outputs/model.pt"))
                .resourceConfig(RESOURCE_CONFIG.formatted(workers));
    }

    /** The submission with its task config naming {@code outputs/tensorboard} (in the work folder) as its TensorBoard folder. */
    public static JobSubmission writingTensorBoard(JobSubmission submission) {
        return submission.taskConfig(submission.getTaskConfig().replace("    trainedModelUri: outputs/model.pt\n",
                "    trainedModelUri: outputs/model.pt\n    tensorboardLogsUri: outputs/tensorboard\n"));
    }

    /**
     * The submission as the JSON object the generated client would send, for a test that must send what the
     * typed model cannot hold (a field of the wrong JSON type) over {@link RawHttpClient}.
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> asJson(JobSubmission submission) {
        return ApiClient.createDefaultObjectMapper().convertValue(submission, Map.class);
    }

    /** A program printing {@code count} numbered lines ({@code tick 1}, ...), one every {@code secondsApart}. */
    public static String ticking(int count, double secondsApart) {
        return "import time\nfor i in range(1, %d):\n    print('tick', i, flush=True)\n    time.sleep(%s)\n"
                .formatted(count + 1, secondsApart);
    }

    /** A program printing {@code count} numbered lines, {@code perBatch} at a time with a short pause. */
    public static String printLines(int count, int perBatch) {
        return "import time\nfor i in range(1, %d):\n    print(\"line\", i)\n    if i %% %d == 0: time.sleep(0.01)\n"
                .formatted(count + 1, perBatch);
    }

    public static List<String> lines(String text) {
        return new ArrayList<>(List.of(text.split("\n")));
    }

    private static String yamlQuoted(String text) {
        return "'" + text.replace("'", "''") + "'";
    }
}

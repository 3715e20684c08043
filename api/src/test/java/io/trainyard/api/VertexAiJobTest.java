package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import com.google.cloud.aiplatform.v1.CustomJob;
import com.google.cloud.aiplatform.v1.CustomJobName;
import com.google.cloud.aiplatform.v1.JobState;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import com.google.logging.type.LogSeverity;
import com.google.rpc.Code;
import io.trainyard.backend.vertexai.FakeCloudLogging;
import io.trainyard.backend.vertexai.FakeVertex;
import io.trainyard.client.ApiException;
import io.trainyard.client.model.Job;
import io.trainyard.client.model.JobSubmission;
import io.trainyard.client.model.LaunchPlan;
import io.trainyard.client.model.NewProject;
import io.trainyard.testing.Eventually;
import io.trainyard.testing.RawHttpClient;
import io.trainyard.testing.RawHttpClient.SseEvent;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TestDatabase;
import io.trainyard.testing.TrainyardClient;
import io.trainyard.testing.VertexAiFakes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Vertex AI jobs through the whole server: real HTTP, real PostgreSQL, the real Google clients talking to
 * gRPC fakes of Vertex AI's JobService and Cloud Logging, and an in-memory Cloud Storage.
 */
class VertexAiJobTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String CPU_IMAGE = "us-docker.pkg.dev/test-project/gigl/src-cpu:1.0";
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration MAX_POLL = Duration.ofMillis(400);

    @TempDir
    static Path dataDir;
    static String databaseUrl;
    static VertexAiFakes fakes;
    static FakeVertex vertex;
    static FakeCloudLogging logging;
    static Storage storage;
    static RunningServer server;
    static TrainyardClient api;

    @BeforeAll
    static void startServer() throws Exception {
        fakes = new VertexAiFakes();
        vertex = fakes.vertex;
        logging = fakes.logging;
        storage = fakes.storage;
        databaseUrl = TestDatabase.newDatabaseUrl();
        startTrainyard();
    }

    private static void startTrainyard() {
        server = fakes.startServer(databaseUrl, dataDir, "vertex-node",
                "--trainyard.vertex-ai.cpu-image=" + CPU_IMAGE,
                "--trainyard.vertex-ai.tensorboard=projects/test-project/locations/us-central1/tensorboards/77",
                "--trainyard.vertex-ai.poll-interval=" + POLL.toMillis() + "ms",
                "--trainyard.vertex-ai.max-poll-interval=" + MAX_POLL.toMillis() + "ms",
                "--trainyard.vertex-ai.log-settle-time=200ms",
                // Every test's jobs poll ten times a second; the real quotas would make them wait for each other.
                "--trainyard.vertex-ai.requests-per-minute=100000",
                "--trainyard.vertex-ai.log-reads-per-minute=100000");
        api = server.api();
    }

    @AfterAll
    static void stopServer() {
        server.close();
        fakes.close();
    }

    static String taskConfig(String jobName, boolean skipTraining) {
        return """
                taskMetadata:
                  nodeAnchorBasedLinkPredictionTaskMetadata:
                    supervisionEdgeTypes: []
                featureFlags:
                  should_run_glt_backend: "True"
                sharedConfig:
                  shouldSkipTraining: %s
                  trainedModelMetadata:
                    trainedModelUri: gs://test-perm/%s/model.pt
                trainerConfig:
                  command: python -m examples.link_prediction.train
                  trainerArgs:
                    learning_rate: "0.01"
                """.formatted(skipTraining, jobName);
    }

    static final String RESOURCE_CONFIG = """
            sharedResourceConfig:
              resourceLabels:
                cost_resource_group: trainyard_tests
              commonComputeConfig:
                project: test-project
                region: us-central1
                tempAssetsBucket: gs://test-temp
                tempRegionalAssetsBucket: gs://test-temp-regional
                permAssetsBucket: gs://test-perm
                tempAssetsBqDatasetName: trainyard_tests_temp
                embeddingBqDatasetName: trainyard_tests_embeddings
                gcpServiceAccountEmail: trainer@test-project.iam.gserviceaccount.com
                dataflowRunner: DataflowRunner
            trainerResourceConfig:
              vertexAiTrainerConfig:
                machineType: n1-standard-4
                gpuType: ACCELERATOR_TYPE_UNSPECIFIED
                numReplicas: 2
            """;

    static JobSubmission job(String jobName) {
        return new JobSubmission().jobName(jobName).taskConfig(taskConfig(jobName, false)).resourceConfig(RESOURCE_CONFIG);
    }

    @Test
    void aJobRunsOnVertexAiWithItsLogsFollowedToTheEnd() throws Exception {
        UUID id = submit(job("vertex_success"));
        CustomJob customJob = awaitCustomJob(id);
        assertThat(api.job(id).getState()).isEqualTo(Job.StateEnum.STARTING);

        vertex.setState(customJob.getName(), JobState.JOB_STATE_RUNNING, null);
        Job running = api.awaitState(id, Job.StateEnum.RUNNING, WAIT);
        String customJobId = CustomJobName.parse(customJob.getName()).getCustomJob();
        assertThat(running.getPlacement().getOnVertexAi().getRegion()).isEqualTo("us-central1");
        assertThat(running.getLinks().get("vertexConsole")).isEqualTo("https://console.cloud.google.com/vertex-ai/"
                + "locations/us-central1/training/" + customJobId + "/cpu?project=test-project");
        assertThat(running.getLinks().get("tensorboard")).isEqualTo("https://us-central1.tensorboard.googleusercontent.com/"
                + "experiment/projects+test-project+locations+us-central1+tensorboards+77+experiments+" + customJobId);
        Instant now = Instant.now();
        logging.write(customJobId, "workerpool0-0", now, LogSeverity.INFO, "epoch 1 loss 0.9");
        logging.write(customJobId, "workerpool1-0", now.plusMillis(1), LogSeverity.ERROR, "replica 1 warning");
        logging.write(customJobId, "workerpool0-0", now.plusMillis(2), LogSeverity.INFO, "saved model");
        vertex.setState(customJob.getName(), JobState.JOB_STATE_SUCCEEDED, null);

        List<SseEvent> events = api.raw().follow("/jobs/" + id + "/logs/stream", null, Integer.MAX_VALUE);

        List<JsonNode> lines = events.subList(0, events.size() - 1).stream().map(event -> RawHttpClient.JSON.readTree(event.data())).toList();
        assertThat(lines).extracting(line -> line.get("text").asString())
                .containsExactly("epoch 1 loss 0.9", "replica 1 warning", "saved model");
        assertThat(lines).extracting(line -> line.get("rank").asInt()).containsExactly(0, 1, 0);
        assertThat(lines).extracting(line -> line.get("stream").asString()).containsExactly("stdout", "stderr", "stdout");
        assertThat(events.getLast().event()).isEqualTo("end");
        assertThat(RawHttpClient.JSON.readTree(events.getLast().data()).get("state").asString()).isEqualTo("SUCCEEDED");
        assertThat(transitions(id)).containsSubsequence("STARTING", "RUNNING", "SUCCEEDED");
    }

    @Test
    void aDryRunAnswersTheExactCustomJobRequestAndStoresNothing() throws ApiException {
        LaunchPlan plan = api.jobs().dryRunJob(job("vertex_dry_run"));

        // The request is Vertex AI's, free-form in the contract: compared as a JSON tree.
        JsonNode request = RawHttpClient.JSON.valueToTree(plan.getCustomJobRequest());
        String id = request.get("customJob").get("labels").get("trainyard_job_id").asString();
        // GiGL's launcher names the leader's address file by the launch time; a dry run's is now.
        String leaderAddress = request.get("customJob").get("jobSpec").get("workerPoolSpecs").get(0).get("containerSpec")
                .get("env").get(0).get("value").asString();
        assertThat(leaderAddress).matches("gs://test-temp-regional/gigl_train_vertex_dry_run/\\d{8}-\\d{6}/leader_worker_internal_ip.txt");
        assertThat(request).isEqualTo(RawHttpClient.JSON.readTree(DRY_RUN_REQUEST.replace("<id>", id).replace("<leader>", leaderAddress)));
        assertThat(vertex.jobs()).noneMatch(job -> job.getDisplayName().equals("gigl_train_vertex_dry_run"));
        assertThat(api.jobs().listJobs(null, "vertex_dry_run", null, null, null, null).getJobs()).isEmpty();
    }

    /**
     * GiGL's request (gigl/src/common/vertex_ai_launcher.py, gigl/common/services/vertex_ai.py): leader pool of one
     * replica plus numReplicas-1, CPU image, GiGL's runtime environment with its release CUDA image where the server
     * names none, 24 h default timeout; TensorBoard's base directory is the parent of the filled tensorboardLogsUri.
     */
    static final String DRY_RUN_REQUEST = """
            {
              "parent": "projects/test-project/locations/us-central1",
              "customJob": {
                "displayName": "gigl_train_vertex_dry_run",
                "jobSpec": {
                  "workerPoolSpecs": [
                    {
                      "machineSpec": {
                        "machineType": "n1-standard-4"
                      },
                      "replicaCount": "1",
                      "diskSpec": {
                        "bootDiskType": "pd-ssd",
                        "bootDiskSizeGb": 100
                      },
                      "containerSpec": {
                        "imageUri": "us-docker.pkg.dev/test-project/gigl/src-cpu:1.0",
                        "command": [
                          "python",
                          "-m",
                          "examples.link_prediction.train"
                        ],
                        "args": [
                          "--job_name=vertex_dry_run",
                          "--task_config_uri=gs://test-temp/vertex_dry_run/trainyard/<id>/frozen_task_config.yaml",
                          "--resource_config_uri=gs://test-temp/vertex_dry_run/trainyard/<id>/resource_config.yaml",
                          "--learning_rate=0.01"
                        ],
                        "env": [
                          {
                            "name": "LEADER_WORKER_INTERNAL_IP_FILE_PATH",
                            "value": "<leader>"
                          },
                          {
                            "name": "TF_CPP_MIN_LOG_LEVEL",
                            "value": "3"
                          },
                          {
                            "name": "GIGL_APPLIED_TASK_IDENTIFIER",
                            "value": "vertex_dry_run"
                          },
                          {
                            "name": "GIGL_TASK_CONFIG_URI",
                            "value": "gs://test-temp/vertex_dry_run/trainyard/<id>/frozen_task_config.yaml"
                          },
                          {
                            "name": "GIGL_RESOURCE_CONFIG_URI",
                            "value": "gs://test-temp/vertex_dry_run/trainyard/<id>/resource_config.yaml"
                          },
                          {
                            "name": "GIGL_COMPONENT",
                            "value": "Trainer"
                          },
                          {
                            "name": "GIGL_CPU_DOCKER_URI",
                            "value": "us-docker.pkg.dev/test-project/gigl/src-cpu:1.0"
                          },
                          {
                            "name": "GIGL_CUDA_DOCKER_URI",
                            "value": "us-central1-docker.pkg.dev/external-snap-ci-github-gigl/public-gigl/src-cuda:0.0.9.dev20251005191521"
                          }
                        ]
                      }
                    },
                    {
                      "machineSpec": {
                        "machineType": "n1-standard-4"
                      },
                      "replicaCount": "1",
                      "diskSpec": {
                        "bootDiskType": "pd-ssd",
                        "bootDiskSizeGb": 100
                      },
                      "containerSpec": {
                        "imageUri": "us-docker.pkg.dev/test-project/gigl/src-cpu:1.0",
                        "command": [
                          "python",
                          "-m",
                          "examples.link_prediction.train"
                        ],
                        "args": [
                          "--job_name=vertex_dry_run",
                          "--task_config_uri=gs://test-temp/vertex_dry_run/trainyard/<id>/frozen_task_config.yaml",
                          "--resource_config_uri=gs://test-temp/vertex_dry_run/trainyard/<id>/resource_config.yaml",
                          "--learning_rate=0.01"
                        ],
                        "env": [
                          {
                            "name": "LEADER_WORKER_INTERNAL_IP_FILE_PATH",
                            "value": "<leader>"
                          },
                          {
                            "name": "TF_CPP_MIN_LOG_LEVEL",
                            "value": "3"
                          },
                          {
                            "name": "GIGL_APPLIED_TASK_IDENTIFIER",
                            "value": "vertex_dry_run"
                          },
                          {
                            "name": "GIGL_TASK_CONFIG_URI",
                            "value": "gs://test-temp/vertex_dry_run/trainyard/<id>/frozen_task_config.yaml"
                          },
                          {
                            "name": "GIGL_RESOURCE_CONFIG_URI",
                            "value": "gs://test-temp/vertex_dry_run/trainyard/<id>/resource_config.yaml"
                          },
                          {
                            "name": "GIGL_COMPONENT",
                            "value": "Trainer"
                          },
                          {
                            "name": "GIGL_CPU_DOCKER_URI",
                            "value": "us-docker.pkg.dev/test-project/gigl/src-cpu:1.0"
                          },
                          {
                            "name": "GIGL_CUDA_DOCKER_URI",
                            "value": "us-central1-docker.pkg.dev/external-snap-ci-github-gigl/public-gigl/src-cuda:0.0.9.dev20251005191521"
                          }
                        ]
                      }
                    }
                  ],
                  "scheduling": {
                    "timeout": "86400s"
                  },
                  "serviceAccount": "trainer@test-project.iam.gserviceaccount.com",
                  "baseOutputDirectory": {
                    "outputUriPrefix": "gs://test-perm/vertex_dry_run/trainer"
                  },
                  "tensorboard": "projects/test-project/locations/us-central1/tensorboards/77",
                  "enableWebAccess": true
                },
                "labels": {
                  "cost_resource_group": "trainyard_tests",
                  "trainyard_job_id": "<id>",
                  "trainyard_attempt": "1"
                }
              }
            }
            """;

    @Test
    void aReplicaExitingNonZeroFailsTheJobAsUserCodeWithItsExitCode() throws Exception {
        UUID id = submit(job("vertex_failure"));
        CustomJob customJob = awaitCustomJob(id);
        vertex.setState(customJob.getName(), JobState.JOB_STATE_RUNNING, null);
        api.awaitState(id, Job.StateEnum.RUNNING, WAIT);

        vertex.setState(customJob.getName(), JobState.JOB_STATE_FAILED, com.google.rpc.Status.newBuilder().setCode(Code.UNKNOWN_VALUE)
                .setMessage("The replica workerpool0-0 exited with a non-zero status of 3.").build());
        Job job = api.awaitEnded(id, WAIT);

        assertThat(job.getState()).isEqualTo(Job.StateEnum.FAILED);
        assertThat(job.getFailureCause()).isEqualTo(Job.FailureCauseEnum.USER_CODE);
        assertThat(job.getExitCode()).isEqualTo(3);
        assertThat(job.getFailureMessage()).contains("workerpool0-0", "non-zero status of 3");
    }

    @Test
    void aCancelWhileTheCustomJobIsBeingCreatedCancelsItOnceItExists() throws Exception {
        vertex.holdCreations();
        UUID id = submit(job("vertex_cancel_while_creating"));
        vertex.awaitCreationRequest("trainyard_job_id", id.toString(), WAIT);

        assertThat(api.jobs().cancelJobWithHttpInfo(id).getStatusCode()).isEqualTo(202);
        assertThat(api.job(id).getState()).isEqualTo(Job.StateEnum.CANCELLING);
        vertex.releaseCreations();
        CustomJob customJob = awaitCustomJob(id);
        awaitCancelOf(customJob);
        assertThat(api.job(id).getState()).isEqualTo(Job.StateEnum.CANCELLING);
        vertex.setState(customJob.getName(), JobState.JOB_STATE_CANCELLED, null);

        assertThat(api.awaitEnded(id, WAIT).getState()).isEqualTo(Job.StateEnum.CANCELLED);
        assertThat(customJobsOf(id)).hasSize(1);
    }

    @Test
    void aJobThatSucceedsDespiteACancelKeepsSucceeded() throws Exception {
        UUID id = submit(job("vertex_cancel_too_late"));
        CustomJob customJob = awaitCustomJob(id);
        vertex.setState(customJob.getName(), JobState.JOB_STATE_RUNNING, null);
        api.awaitState(id, Job.StateEnum.RUNNING, WAIT);

        api.jobs().cancelJob(id);
        awaitCancelOf(customJob);
        vertex.setState(customJob.getName(), JobState.JOB_STATE_SUCCEEDED, null);

        assertThat(api.awaitEnded(id, WAIT).getState()).isEqualTo(Job.StateEnum.SUCCEEDED);
        assertThat(transitions(id)).containsSubsequence("RUNNING", "CANCELLING", "SUCCEEDED");
    }

    @Test
    void aJobPastItsTimeoutIsCancelledAndFailsWithTimeout() throws Exception {
        UUID id = submit(job("vertex_timeout").timeoutSeconds(1L));
        CustomJob customJob = awaitCustomJob(id);
        vertex.setState(customJob.getName(), JobState.JOB_STATE_RUNNING, null);

        awaitCancelOf(customJob);
        vertex.setState(customJob.getName(), JobState.JOB_STATE_CANCELLED, null);
        Job job = api.awaitEnded(id, WAIT);

        assertThat(job.getState()).isEqualTo(Job.StateEnum.FAILED);
        assertThat(job.getFailureCause()).isEqualTo(Job.FailureCauseEnum.TIMEOUT);
        assertThat(job.getFailureMessage()).contains("timeout of 1 s");
    }

    @Test
    void aCustomJobThatDoesNotChangeIsLookedAtLessAndLessOften() throws Exception {
        UUID id = submit(job("vertex_backoff"));
        CustomJob customJob = awaitCustomJob(id);
        Thread.sleep(3_000);
        List<Long> gets = List.copyOf(vertex.getNanos.get(customJob.getName()));
        api.jobs().cancelJob(id);

        List<Duration> gaps = new ArrayList<>();
        for (int i = 1; i < gets.size(); i++) {
            gaps.add(Duration.ofNanos(gets.get(i) - gets.get(i - 1)));
        }
        // 100 ms after the creation, then 200 ms, then the 400 ms cap; a busy machine only lengthens them.
        assertThat(gaps).hasSizeGreaterThanOrEqualTo(3);
        assertThat(gaps.getFirst()).isGreaterThanOrEqualTo(Duration.ofMillis(190));
        assertThat(gaps.subList(1, gaps.size())).allSatisfy(gap -> assertThat(gap)
                .isGreaterThanOrEqualTo(MAX_POLL.minusMillis(10)).isLessThan(MAX_POLL.plusSeconds(1)));
    }

    @Test
    void aServerRestartedAfterCreatingFindsTheCustomJobAndStoresNoLogLineTwice() throws Exception {
        UUID id = submit(job("vertex_restart"));
        CustomJob customJob = awaitCustomJob(id);
        String customJobId = CustomJobName.parse(customJob.getName()).getCustomJob();
        // Three entries share each microsecond, and more than a page of 1,000 is read at once.
        Instant start = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        writeLines(customJobId, start, 1, 1_200);
        awaitLineCount(id, 1_200);

        // The CustomJob's name was never recorded (it is still pending): only its labels find it again.
        server.close();
        writeLines(customJobId, start.plusMillis(5), 1_201, 1_500);
        startTrainyard();
        vertex.setState(customJob.getName(), JobState.JOB_STATE_RUNNING, null);
        api.awaitState(id, Job.StateEnum.RUNNING, WAIT);
        vertex.setState(customJob.getName(), JobState.JOB_STATE_SUCCEEDED, null);
        assertThat(api.awaitEnded(id, WAIT).getState()).isEqualTo(Job.StateEnum.SUCCEEDED);

        assertThat(customJobsOf(id)).hasSize(1);
        List<String> expected = new ArrayList<>();
        for (int i = 1; i <= 1_500; i++) {
            expected.add("line " + i);
        }
        assertThat(api.logTexts(id)).containsExactlyElementsOf(expected);
    }

    @Test
    void configsAreUploadedFrozenAndOldOutputsDeletedBeforeTheCustomJobIsCreated() throws Exception {
        String name = "vertex_assets";
        BlobId oldModel = BlobId.of("test-perm", name + "/model.pt");
        BlobId oldModelPart = BlobId.of("test-perm", name + "/model.pt/part-0");
        BlobId oldTrainerAsset = BlobId.of("test-perm", name + "/trainer/checkpoint.pt");
        BlobId tempNotTrainerAssets = BlobId.of("test-temp", name + "/trainer/checkpoint.pt");
        BlobId otherJobsModel = BlobId.of("test-perm", "other_job/model.pt");
        for (BlobId blob : List.of(oldModel, oldModelPart, oldTrainerAsset, tempNotTrainerAssets, otherJobsModel)) {
            storage.create(BlobInfo.newBuilder(blob).build(), "old".getBytes(StandardCharsets.UTF_8));
        }
        vertex.holdCreations();
        UUID id = submit(job(name));
        try {
            vertex.awaitCreationRequest("trainyard_job_id", id.toString(), WAIT);

            String configs = name + "/trainyard/" + id + "/";
            // The unset outputs are filled as GiGL's config populator fills a template (config_populator.py), at
            // GiGL's paths under the perm bucket (gcs.py); the set one is kept.
            assertThat(content(BlobId.of("test-temp", configs + "frozen_task_config.yaml"))).contains(
                    "trainedModelUri: gs://test-perm/vertex_assets/model.pt",
                    "scriptedModelUri: gs://test-perm/vertex_assets/trainer/models/scripted_model.pt",
                    "evalMetricsUri: gs://test-perm/vertex_assets/trainer/models/trainer_eval_metrics.json",
                    "tensorboardLogsUri: gs://test-perm/vertex_assets/trainer/logs/");
            assertThat(api.job(id).getOutputs().get("evalMetricsUri"))
                    .isEqualTo("gs://test-perm/vertex_assets/trainer/models/trainer_eval_metrics.json");
            assertThat(content(BlobId.of("test-temp", configs + "resource_config.yaml"))).isEqualTo(RESOURCE_CONFIG);
            assertThat(storage.get(oldModel)).isNull();
            assertThat(storage.get(oldModelPart)).isNull();
            // GiGL's trainer asset folder is under the perm bucket (get_trainer_asset_dir_gcs_path in gcs.py).
            assertThat(storage.get(oldTrainerAsset)).isNull();
            assertThat(storage.get(tempNotTrainerAssets)).isNotNull();
            assertThat(storage.get(otherJobsModel)).isNotNull();
        } finally {
            vertex.releaseCreations();
        }
        assertThat(awaitCustomJob(id).getJobSpec().getWorkerPoolSpecs(0).getContainerSpec().getArgsList())
                .contains("--task_config_uri=gs://test-temp/" + name + "/trainyard/" + id + "/frozen_task_config.yaml");
    }

    @Test
    void aJobThatSkipsTrainingKeepsItsOutputs() throws Exception {
        String name = "vertex_skip_training";
        BlobId model = BlobId.of("test-perm", name + "/model.pt");
        storage.create(BlobInfo.newBuilder(model).build(), "trained before".getBytes(StandardCharsets.UTF_8));
        awaitCustomJob(submit(job(name).taskConfig(taskConfig(name, true))));

        assertThat(content(model)).isEqualTo("trained before");
    }

    @Test
    void configsOnCloudStorageAreReadOnlyForProjectsThatAllowIt() throws Exception {
        String name = "vertex_gcs_configs";
        storage.create(BlobInfo.newBuilder(BlobId.of("test-temp", "configs/task.yaml")).build(),
                taskConfig(name, false).getBytes(StandardCharsets.UTF_8));
        storage.create(BlobInfo.newBuilder(BlobId.of("test-temp", "configs/resource.yaml")).build(),
                RESOURCE_CONFIG.getBytes(StandardCharsets.UTF_8));
        JobSubmission body = new JobSubmission().jobName(name).taskConfigUri("gs://test-temp/configs/task.yaml")
                .resourceConfigUri("gs://test-temp/configs/resource.yaml");
        api.projects().createProject(new NewProject().name("gcs-readers").allowGcsConfigs(true));
        ApiException refused = TrainyardClient.refusal(() -> api.jobs().submitJob(body, null));

        UUID id = submit(body.project("gcs-readers"));

        assertThat(refused.getCode()).isEqualTo(422);
        assertThat(refused.getResponseBody()).contains("taskConfigUri", "does not allow");
        assertThat(api.job(id).getTaskConfigSource()).isEqualTo("gs://test-temp/configs/task.yaml");
        assertThat(awaitCustomJob(id).getDisplayName()).isEqualTo("gigl_train_" + name);
        ApiException missing = TrainyardClient.refusal(() -> api.jobs().submitJob(body.taskConfigUri("gs://test-temp/configs/missing.yaml"), null));
        assertThat(missing.getCode()).isEqualTo(422);
        assertThat(missing.getResponseBody()).contains("taskConfigUri", "does not exist");
    }

    private static UUID submit(JobSubmission body) {
        return api.submit(body).getId();
    }

    private static List<CustomJob> customJobsOf(UUID id) {
        return vertex.jobs().stream().filter(job -> id.toString().equals(job.getLabelsMap().get("trainyard_job_id"))).toList();
    }

    private static CustomJob awaitCustomJob(UUID id) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (customJobsOf(id).isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no CustomJob was created for job " + id);
            }
            Thread.sleep(20);
        }
        return customJobsOf(id).getFirst();
    }

    private static void awaitCancelOf(CustomJob customJob) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!vertex.cancels.contains(customJob.getName())) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("CustomJob " + customJob.getName() + " was never cancelled");
            }
            Thread.sleep(20);
        }
    }

    private static void writeLines(String customJobId, Instant start, int first, int last) {
        for (int i = first; i <= last; i++) {
            logging.write(customJobId, "workerpool0-0", start.plus(i / 3, ChronoUnit.MICROS), LogSeverity.INFO, "line " + i);
        }
    }

    private static void awaitLineCount(UUID id, int count) {
        Eventually.await(count + " lines of job " + id, () -> api.logTexts(id).size() >= count, WAIT);
    }

    private static List<String> transitions(UUID id) throws ApiException {
        return api.jobs().listJobEvents(id).stream().map(event -> event.getTo().getValue()).toList();
    }

    private static String content(BlobId blob) {
        return new String(storage.readAllBytes(blob), StandardCharsets.UTF_8);
    }
}

package io.trainyard.api;

import static io.trainyard.testing.TrainyardClient.refusal;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.trainyard.client.ApiException;
import io.trainyard.client.model.Job;
import io.trainyard.client.model.JobSubmission;
import io.trainyard.client.model.LaunchPlan;
import io.trainyard.client.model.LaunchWorker;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TestDatabase;
import io.trainyard.testing.TrainyardClient;
import io.trainyard.testing.VertexAiFakes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * GiGL's own example configs (test resources under gigl-examples/, each naming its GiGL path), dry-run through
 * a real server with the Vertex AI backend on gRPC fakes and the local backend, and compared with the launch
 * GiGL makes of them: gigl/src/training/v2/glt_trainer.py and v1/trainer.py choosing the launch,
 * gigl/src/common/vertex_ai_launcher.py and gigl/common/services/vertex_ai.py building it, and
 * gigl/src/config_populator/config_populator.py filling the templates' outputs first. The server names no images,
 * so GiGL's release images run, as in GiGL's launcher.
 */
class GiglExampleConfigsTest {

    private static final String RELEASE_CPU = "us-central1-docker.pkg.dev/external-snap-ci-github-gigl/public-gigl/src-cpu:0.0.9.dev20251005191521";
    private static final String TEMP = "gs://USER_PROVIDED_TEMP_ASSETS_BUCKET";
    private static final String RELEASE_CUDA = "us-central1-docker.pkg.dev/external-snap-ci-github-gigl/public-gigl/src-cuda:0.0.9.dev20251005191521";

    /** Reads the CustomJob request of a plan, which the contract leaves free-form (it is Vertex AI's), as a tree. */
    private static final JsonMapper TREES = JsonMapper.builder().build();

    @TempDir
    static Path dataDir;
    static VertexAiFakes fakes;
    static RunningServer server;
    static TrainyardClient api;

    @BeforeAll
    static void startServer() throws Exception {
        fakes = new VertexAiFakes();
        server = fakes.startServer(TestDatabase.newDatabaseUrl(), dataDir, "gigl-examples-node",
                "--trainyard.config-roots=" + example(""));
        api = server.api();
    }

    @AfterAll
    static void stopServer() {
        server.close();
        fakes.close();
    }

    @Test
    void theInMemoryCoraExampleLaunchesAsASinglePoolGpuJob() throws Exception {
        JsonNode request = dryRun("cora_glt", "e2e_hom_cora_sup_task_config.yaml", "example_resource_config.yaml");

        assertThat(request.get("parent").asString()).isEqualTo("projects/USER_PROVIDED_PROJECT/locations/us-central1");
        JsonNode customJob = request.get("customJob");
        assertThat(customJob.get("displayName").asString()).isEqualTo("gigl_train_cora_glt");
        assertThat(customJob.get("labels").get("cost_resource_group_tag").asString()).isEqualTo("dev_experiments_tra");
        JsonNode spec = customJob.get("jobSpec");
        assertThat(spec.get("serviceAccount").asString()).isEqualTo("USER_PROVIDED_SA@USER_PROVIDED_PROJECT.iam.gserviceaccount.com");
        assertThat(spec.get("scheduling").get("timeout").asString()).isEqualTo("86400s");
        assertThat(spec.get("tensorboard").asString())
                .isEqualTo("projects/USER_PROVIDED_PROJECT/locations/us-central1/tensorboards/USER_PROVIDED_TENSORBOARD_ID");
        // The template's filled tensorboardLogsUri is <perm>/<job>/trainer/logs/; its parent is the base directory.
        assertThat(spec.get("baseOutputDirectory").get("outputUriPrefix").asString())
                .isEqualTo("gs://USER_PROVIDED_PERM_ASSETS_BUCKET/cora_glt/trainer");
        JsonNode pools = spec.get("workerPoolSpecs");
        assertThat(pools).hasSize(2);
        assertThat(replicas(pools)).containsExactly("1", "1");
        for (JsonNode pool : pools) {
            assertThat(pool.get("machineSpec").toString()).isEqualTo(
                    "{\"machineType\":\"n1-standard-16\",\"acceleratorType\":\"NVIDIA_TESLA_T4\",\"acceleratorCount\":2}");
            JsonNode container = pool.get("containerSpec");
            assertThat(container.get("imageUri").asString()).isEqualTo(RELEASE_CUDA);
            assertThat(strings(container.get("command"))).containsExactly("python", "-m", "examples.link_prediction.homogeneous_training");
            assertThat(strings(container.get("args"))).containsExactly("--job_name=cora_glt",
                    "--task_config_uri=" + configs(request, TEMP, "frozen_task_config.yaml"),
                    "--resource_config_uri=" + configs(request, TEMP, "resource_config.yaml"),
                    "--use_cuda", "--log_every_n_batch=50", "--num_neighbors=[10, 10]");
            assertThat(env(container).keySet()).containsExactly("LEADER_WORKER_INTERNAL_IP_FILE_PATH", "TF_CPP_MIN_LOG_LEVEL",
                    "GIGL_APPLIED_TASK_IDENTIFIER", "GIGL_TASK_CONFIG_URI", "GIGL_RESOURCE_CONFIG_URI", "GIGL_COMPONENT",
                    "GIGL_CPU_DOCKER_URI", "GIGL_CUDA_DOCKER_URI");
            assertThat(env(container).get("LEADER_WORKER_INTERNAL_IP_FILE_PATH"))
                    .matches("gs://USER_PROVIDED_TEMP_ASSETS_BUCKET/gigl_train_cora_glt/\\d{8}-\\d{6}/leader_worker_internal_ip.txt");
            assertThat(env(container)).containsEntry("GIGL_CPU_DOCKER_URI", RELEASE_CPU).containsEntry("GIGL_CUDA_DOCKER_URI", RELEASE_CUDA);
        }
    }

    @Test
    void theGraphStoreCoraExampleLaunchesTheComputeLeaderTheComputeWorkersAndTheStoragePool() throws Exception {
        JsonNode request = dryRun("cora_graph_store", "e2e_hom_cora_sup_gs_task_config.yaml", "graph_store_example_resource_config.yaml");

        JsonNode spec = request.get("customJob").get("jobSpec");
        JsonNode pools = spec.get("workerPoolSpecs");
        assertThat(pools).hasSize(3);
        assertThat(replicas(pools)).containsExactly("1", "1", "2");
        assertThat(pools.get(0).get("machineSpec").get("machineType").asString()).isEqualTo("n1-standard-16");
        assertThat(pools.get(2).get("machineSpec").get("machineType").asString()).isEqualTo("n2-highmem-32");
        JsonNode compute = pools.get(0).get("containerSpec");
        JsonNode storage = pools.get(2).get("containerSpec");
        assertThat(compute.get("imageUri").asString()).isEqualTo(RELEASE_CUDA);
        assertThat(storage.get("imageUri").asString()).isEqualTo(RELEASE_CPU);
        assertThat(strings(compute.get("args"))).contains("--use_cuda", "--num_neighbors=[10, 10]");
        assertThat(strings(storage.get("command"))).containsExactly("python", "-m", "examples.link_prediction.graph_store.storage_main");
        assertThat(strings(storage.get("args"))).containsExactly("--job_name=cora_graph_store",
                "--task_config_uri=" + configs(request, TEMP, "frozen_task_config.yaml"),
                "--resource_config_uri=" + configs(request, TEMP, "resource_config.yaml"),
                "--sample_edge_direction=in", "--splitter_cls_path=gigl.utils.data_splitters.DistNodeAnchorLinkSplitter",
                "--splitter_kwargs={\n  \"sampling_direction\": \"in\",\n  \"should_convert_labels_to_edges\": True,\n"
                        + "  \"num_val\": 0.25,\n  \"num_test\": 0.25\n}",
                "--num_server_sessions=1");
        assertThat(env(storage)).isEqualTo(env(compute)).containsEntry("COMPUTE_CLUSTER_LOCAL_WORLD_SIZE", "2")
                .doesNotContainKey("LEADER_WORKER_INTERNAL_IP_FILE_PATH");
        assertThat(spec.get("tensorboard").asString()).endsWith("/tensorboards/USER_PROVIDED_TENSORBOARD_ID");
    }

    @Test
    void aGraphStoreConfigGoesToVertexAiWhichIsMadeForItAndRunsOnTheLocalPoolAsOneWorldWhenItNamesIt() throws Exception {
        Path examples = Path.of("").toAbsolutePath().getParent().resolve("examples/graph-store-link-prediction");
        JobSubmission submission = new JobSubmission().jobName("graph_store_here")
                .taskConfig(Files.readString(examples.resolve("task_config.yaml")))
                .resourceConfig(Files.readString(examples.resolve("resource_config.yaml")));

        ApiException toVertex = refusal(() -> api.jobs().dryRunJob(submission));
        LaunchPlan local = api.jobs().dryRunJob(submission.backend("local"));

        assertThat(toVertex.getResponseBody()).as("Vertex AI writes its outputs to GCS").contains("gs://");
        assertThat(local.getBackend()).isEqualTo("local");
        assertThat(local.getWorkers()).extracting(LaunchWorker::getRank).containsExactly(0, 1, 2);
        LaunchWorker compute = local.getWorkers().get(1);
        LaunchWorker storage = local.getWorkers().get(2);
        assertThat(compute.getArgv()).containsSequence("-m", "trainyard_runtime.train").contains("--partitioner=metis");
        assertThat(storage.getArgv()).containsSequence("-m", "trainyard_runtime.graph_store_mode.storage_main")
                .doesNotContain("--partitioner=metis");
        assertThat(compute.getEnvironment()).containsEntry("COMPUTE_CLUSTER_LOCAL_WORLD_SIZE", "2").containsEntry("WORLD_SIZE", "3");
        assertThat(storage.getEnvironment()).containsEntry("COMPUTE_CLUSTER_LOCAL_WORLD_SIZE", "2").containsEntry("RANK", "2")
                .containsEntry("CUDA_VISIBLE_DEVICES", "");
    }

    @Test
    void theDeploymentGraphStoreConfigLaunchesTheCoraGraphStoreExample() throws Exception {
        JsonNode pools = dryRun("cora_gs_deployment", "e2e_hom_cora_sup_gs_task_config.yaml", "deployment/e2e_glt_gs_train_resource_config.yaml")
                .get("customJob").get("jobSpec").get("workerPoolSpecs");

        assertThat(replicas(pools)).containsExactly("1", "1", "2");
        assertThat(pools.get(1).get("containerSpec").get("command").get(2).asString())
                .isEqualTo("examples.link_prediction.graph_store.homogeneous_training");
    }

    // GiGL composes a resource config's Hydra defaults list from the files beside it (gigl/common/utils/proto_utils.py,
    // gigl/common/utils/hydra_config.py); the trainer receives the composed config.
    @Test
    void theDeploymentHydraConfigsAreComposedAndLaunchTheCoraExamples() throws Exception {
        JsonNode singlePool = dryRun("cora_hydra", "e2e_hom_cora_sup_task_config.yaml", "deployment/e2e_glt_resource_config.yaml");
        assertThat(singlePool.get("parent").asString()).isEqualTo("projects/external-snap-ci-github-gigl/locations/us-central1");
        JsonNode pools = singlePool.get("customJob").get("jobSpec").get("workerPoolSpecs");
        assertThat(replicas(pools)).containsExactly("1", "1");
        assertThat(pools.get(0).get("machineSpec").toString()).isEqualTo(
                "{\"machineType\":\"n1-highmem-32\",\"acceleratorType\":\"NVIDIA_TESLA_T4\",\"acceleratorCount\":2}");
        assertThat(singlePool.get("customJob").get("jobSpec").get("serviceAccount").asString())
                .isEqualTo("untrusted-external-github-gigl@external-snap-ci-github-gigl.iam.gserviceaccount.com");
        assertThat(singlePool.get("customJob").get("labels").get("cost_resource_group_tag").asString()).isEqualTo("dev_experiments_tra");

        JsonNode graphStore = dryRun("cora_hydra_gs", "e2e_hom_cora_sup_gs_task_config.yaml", "deployment/e2e_glt_gs_resource_config.yaml");
        assertThat(replicas(graphStore.get("customJob").get("jobSpec").get("workerPoolSpecs"))).containsExactly("1", "1", "2");

        JobSubmission inline = new JobSubmission().jobName("cora_hydra_inline")
                .taskConfigUri(example("e2e_hom_cora_sup_task_config.yaml").toString())
                .resourceConfig(Files.readString(example("deployment/e2e_glt_resource_config.yaml")));
        ApiException refused = TrainyardClient.refusal(() -> api.jobs().dryRunJob(inline));
        assertThat(refused.getCode()).isEqualTo(422);
        assertThat(TrainyardClient.problem(refused.getResponseBody()).getErrors().getFirst().getField())
                .isEqualTo("resourceConfig.defaults");
    }

    // The deprecated top-level trainer_config is read as trainer_resource_config (gigl_resource_config.py).
    @Test
    void theDeploymentUnitTestConfigLaunchesTheInMemoryExampleFromItsDeprecatedTrainerConfig() throws Exception {
        JsonNode pools = dryRun("cora_unittest", "e2e_hom_cora_sup_task_config.yaml", "deployment/unittest_resource_config.yaml")
                .get("customJob").get("jobSpec").get("workerPoolSpecs");

        assertThat(replicas(pools)).containsExactly("1", "1");
        assertThat(pools.get(0).get("machineSpec").toString()).isEqualTo(
                "{\"machineType\":\"n1-highmem-8\",\"acceleratorType\":\"NVIDIA_TESLA_T4\",\"acceleratorCount\":1}");
    }

    // GiGL's v1 trainer (gigl/src/training/v1/trainer.py): named after the bare job, the v1 training process with both
    // images on its command line.
    @Test
    void theToyLegacyExampleLaunchesGiglsV1TrainingProcess() throws Exception {
        JsonNode request = dryRun("toy_legacy", "toy_template_task_config.yaml", "toy_resource_config.yaml");

        JsonNode customJob = request.get("customJob");
        assertThat(customJob.get("displayName").asString()).isEqualTo("toy_legacy");
        JsonNode pools = customJob.get("jobSpec").get("workerPoolSpecs");
        assertThat(replicas(pools)).containsExactly("1");
        assertThat(pools.get(0).get("machineSpec").get("acceleratorType").asString()).isEqualTo("NVIDIA_TESLA_P100");
        JsonNode container = pools.get(0).get("containerSpec");
        assertThat(strings(container.get("command"))).containsExactly("python", "-m", "gigl.src.training.v1.lib.training_process");
        assertThat(strings(container.get("args"))).containsExactly("--job_name=toy_legacy",
                "--task_config_uri=" + configs(request, "gs://gigl-cicd-temp", "frozen_task_config.yaml"),
                "--resource_config_uri=" + configs(request, "gs://gigl-cicd-temp", "resource_config.yaml"),
                "--cpu_docker_uri=" + RELEASE_CPU, "--cuda_docker_uri=" + RELEASE_CUDA, "--use_cuda");
    }

    @Test
    void theInMemoryCoraExampleRunsLocallyWithGiglsEnvironment() throws Exception {
        JobSubmission body = new JobSubmission().jobName("cora_local")
                .taskConfigUri(example("e2e_hom_cora_sup_task_config.yaml").toString())
                .resourceConfig(JobBodies.RESOURCE_CONFIG.formatted(2));

        LaunchPlan plan = api.jobs().dryRunJob(body);

        assertThat(plan.getWorkers()).hasSize(2).allSatisfy(worker -> {
            assertThat(worker.getArgv()).startsWith("python", "-m", "examples.link_prediction.homogeneous_training",
                    "--job_name=cora_local").endsWith("--log_every_n_batch=50", "--num_neighbors=[10, 10]");
            assertThat(worker.getEnvironment().get("GIGL_CPU_DOCKER_URI")).isEqualTo(RELEASE_CPU);
            assertThat(worker.getEnvironment().get("GIGL_CUDA_DOCKER_URI")).isEqualTo(RELEASE_CUDA);
        });
    }

    // GiGL's config populator fills a template's outputs before the trainer starts (config_populator.py); a local job's
    // are the same paths under its work folder, in the config file the trainer reads and in the job's outputs.
    @Test
    void aLocalTemplateIsFrozenWithItsOutputsUnderTheWorkFolder() {
        String program = """
                import sys
                path = [arg for arg in sys.argv if arg.startswith("--task_config_uri=")][0].split("=", 1)[1][len("file://"):]
                for line in open(path):
                    if "Uri:" in line:
                        print("FROZEN", line.strip())
                """;
        JobSubmission body = JobBodies.job("local_template", program);
        body.taskConfig(body.getTaskConfig().replace("  trainedModelMetadata:\n    trainedModelUri: outputs/model.pt\n", ""));

        UUID id = api.submit(body).getId();
        Job job = api.awaitEnded(id, Duration.ofSeconds(60));

        assertThat(job.getState()).isEqualTo(Job.StateEnum.SUCCEEDED);
        assertThat(api.logTexts(id)).contains("FROZEN trainedModelUri: trainer/models/model.pt",
                "FROZEN scriptedModelUri: trainer/models/scripted_model.pt",
                "FROZEN evalMetricsUri: trainer/models/trainer_eval_metrics.json", "FROZEN tensorboardLogsUri: trainer/logs/");
        Path work = dataDir.resolve("jobs").resolve(id.toString());
        assertThat(job.getOutputs().get("trainedModelUri")).isEqualTo(work.resolve("trainer/models/model.pt").toUri().toString());
        assertThat(job.getOutputs().get("tensorboardLogsUri")).isEqualTo(work.resolve("trainer/logs").toUri().toString());
    }

    // gigl/src/training/trainer.py returns at once when both are skipped: nothing is planned, and the job succeeds.
    @Test
    void aConfigSkippingTrainingAndEvaluationIsAcceptedAndLaunchesNothing() throws ApiException {
        JobSubmission body = new JobSubmission().jobName("cora_skips_all")
                .taskConfig(JobBodies.taskConfig("print('never run')", "outputs/model.pt")
                        .replace("sharedConfig:\n", "sharedConfig:\n  shouldSkipTraining: true\n  shouldSkipModelEvaluation: true\n"))
                .resourceConfig(JobBodies.RESOURCE_CONFIG.formatted(1));

        LaunchPlan plan = api.jobs().dryRunJob(body);
        assertThat(plan.getWorkers()).isEmpty();
        assertThat((String) plan.getPlacement().get("nothingToLaunch")).contains("GiGL's trainer exits");

        Job job = api.awaitEnded(api.submit(body).getId(), Duration.ofSeconds(30));
        assertThat(job.getState()).isEqualTo(Job.StateEnum.SUCCEEDED);
        assertThat(job.getNode()).isNull();
        assertThat(api.logTexts(job.getId())).doesNotContain("never run");
    }

    private static JsonNode dryRun(String jobName, String taskConfig, String resourceConfig)
            throws URISyntaxException, ApiException {
        LaunchPlan plan = api.jobs().dryRunJob(new JobSubmission().jobName(jobName)
                .taskConfigUri(example(taskConfig).toUri().toString()).resourceConfigUri(example(resourceConfig).toString()));
        assertThat(plan.getBackend()).isEqualTo("vertex-ai");
        return TREES.valueToTree(plan.getCustomJobRequest());
    }

    private static Path example(String name) throws URISyntaxException {
        return Path.of(GiglExampleConfigsTest.class.getResource("/gigl-examples/" + name).toURI());
    }

    /** Where the job's frozen configs are uploaded: a folder of its own under the temp bucket. */
    private static String configs(JsonNode request, String tempBucket, String file) {
        JsonNode customJob = request.get("customJob");
        String jobName = strings(customJob.get("jobSpec").get("workerPoolSpecs").get(0).get("containerSpec").get("args"))
                .getFirst().substring("--job_name=".length());
        return tempBucket + "/" + jobName + "/trainyard/" + customJob.get("labels").get("trainyard_job_id").asString() + "/" + file;
    }

    private static List<String> replicas(JsonNode pools) {
        List<String> replicas = new ArrayList<>();
        pools.forEach(pool -> replicas.add(pool.has("replicaCount") ? pool.get("replicaCount").asString() : "0"));
        return replicas;
    }

    private static List<String> strings(JsonNode array) {
        List<String> strings = new ArrayList<>();
        array.forEach(item -> strings.add(item.asString()));
        return strings;
    }

    private static Map<String, String> env(JsonNode container) {
        Map<String, String> env = new LinkedHashMap<>();
        container.get("env").forEach(variable -> env.put(variable.get("name").asString(), variable.get("value").asString()));
        return env;
    }
}

package io.trainyard.backend.vertexai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.google.cloud.aiplatform.v1.AcceleratorType;
import com.google.cloud.aiplatform.v1.ContainerSpec;
import com.google.cloud.aiplatform.v1.CreateCustomJobRequest;
import com.google.cloud.aiplatform.v1.CustomJob;
import com.google.cloud.aiplatform.v1.CustomJobSpec;
import com.google.cloud.aiplatform.v1.DiskSpec;
import com.google.cloud.aiplatform.v1.EnvVar;
import com.google.cloud.aiplatform.v1.GcsDestination;
import com.google.cloud.aiplatform.v1.MachineSpec;
import com.google.cloud.aiplatform.v1.ReservationAffinity;
import com.google.cloud.aiplatform.v1.Scheduling;
import com.google.cloud.aiplatform.v1.WorkerPoolSpec;
import com.google.protobuf.util.JsonFormat;
import io.trainyard.gigl.ResourceConfigReader;
import io.trainyard.gigl.TaskConfigReader;
import io.trainyard.job.Job;
import io.trainyard.job.JobSpec;
import io.trainyard.launch.TrainerImages;
import io.trainyard.validation.InvalidRequestException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The CustomJob request GiGL's launcher would send, as Vertex AI receives it from the real client: each
 * test compares the whole request proto. Checked against GiGL's gigl/src/common/vertex_ai_launcher.py
 * (launch_single_pool_job, launch_graph_store_enabled_job, _build_job_config), gigl/common/services/vertex_ai.py
 * (VertexAIService.launch_job, launch_graph_store_job), gigl/src/common/utils/gigl_env.py
 * (get_gigl_runtime_env_vars) and gigl/src/training/v2/glt_trainer.py.
 */
class CustomJobRequestTest {

    static final UUID JOB = UUID.fromString("3f1c9a52-7d4e-4b8a-9c0d-2e6f8a1b4c7d");
    static final String CPU_IMAGE = "us-docker.pkg.dev/p/gigl/src-cpu:1.0";
    static final String CUDA_IMAGE = "us-docker.pkg.dev/p/gigl/src-cuda:1.0";
    static final String CONFIGS = "gs://tmp-assets/my_job/trainyard/" + JOB + "/";
    /** The attempt was queued at the epoch, so GiGL's launch-time folder of the leader's address is this. */
    static final String LEADER_ADDRESS = "gs://tmp-regional/gigl_train_my_job/19700101-000000/leader_worker_internal_ip.txt";

    static final String TASK = """
            taskMetadata:
              nodeAnchorBasedLinkPredictionTaskMetadata: {}
            featureFlags:
              should_run_glt_backend: "True"
            sharedConfig:
              trainedModelMetadata:
                trainedModelUri: gs://perm-assets/my_job/model.pt
                tensorboardLogsUri: gs://perm-assets/my_job/trainer/logs/
            trainerConfig:
              command: python -m examples.link_prediction.train
              trainerArgs:
                num_neighbors: "[10, 10]"
                learning_rate: "0.001"
            """;

    static final String GRAPH_STORE_TASK = TASK + """
              graphStoreStorageConfig:
                command: python -m gigl.distributed.graph_store.storage_main
                storageArgs:
                  num_server_sessions: "2"
            """;

    /** GiGL's v1 (tabularized) trainer: no GLT flag, a BaseTrainer class to train. */
    static final String LEGACY_TASK = """
            taskMetadata:
              nodeAnchorBasedLinkPredictionTaskMetadata: {}
            sharedConfig:
              trainedModelMetadata:
                trainedModelUri: gs://perm-assets/my_job/model.pt
            trainerConfig:
              trainerClsPath: gigl.src.common.modeling_task_specs.NodeAnchorBasedLinkPredictionModelingTaskSpec
            """;

    static String resource(String trainer) {
        return """
                sharedResourceConfig:
                  resourceLabels:
                    cost_resource_group_tag: dev_COMPONENT
                    team: ranking
                  commonComputeConfig:
                    project: my-project
                    region: us-central1
                    tempAssetsBucket: gs://tmp-assets
                    tempRegionalAssetsBucket: gs://tmp-regional
                    permAssetsBucket: gs://perm-assets
                    tempAssetsBqDatasetName: gigl_temp_assets
                    embeddingBqDatasetName: gigl_embeddings
                    gcpServiceAccountEmail: trainer@my-project.iam.gserviceaccount.com
                    dataflowRunner: DataflowRunner
                trainerResourceConfig:
                """ + trainer.indent(2);
    }

    /** The job as submitted: attempt 1 of id {@link #JOB}, queued at the epoch. */
    static Job submitted(JobSpec spec) {
        return new Job(JOB, spec, "tester", null, null, Instant.EPOCH);
    }

    static JobSpec spec(String task, String resource, long timeoutSeconds) {
        return spec(task, resource, timeoutSeconds, TrainerImages.SERVER_DEFAULTS);
    }

    static JobSpec spec(String task, String resource, long timeoutSeconds, TrainerImages images) {
        return new JobSpec("my_job", VertexAiBackend.NAME, "default", TaskConfigReader.read("taskConfig", task),
                ResourceConfigReader.read("resourceConfig", resource, (field, uri) -> {
                    throw new AssertionError("these resource configs name their shared resource config inline");
                }), task, resource, null, null, Map.of(), 0, false, timeoutSeconds, 1, 0, 1, 30, images);
    }

    static VertexAiProperties properties(String tensorboard) {
        return properties(CPU_IMAGE, CUDA_IMAGE, tensorboard, null);
    }

    static VertexAiProperties properties(String cpuImage, String cudaImage, String tensorboard, String bigqueryQuotaProject) {
        return new VertexAiProperties("my-project", "us-central1", cpuImage, cudaImage, tensorboard, null, null, false,
                Duration.ofMillis(20), Duration.ofMillis(80), 60, 600, 60, Duration.ZERO, bigqueryQuotaProject, 600,
                null, 600, Duration.ofMillis(20), Duration.ZERO);
    }

    private final FakeVertex vertex = new FakeVertex();

    CustomJobRequestTest() throws Exception {
    }

    @AfterEach
    void close() {
        vertex.close();
    }

    /** Sends the built request through the real client and answers what the fake Vertex received. */
    private CreateCustomJobRequest received(JobSpec spec, VertexAiProperties properties) throws InterruptedException {
        CreateCustomJobRequest built = new CustomJobBuilder(properties).build(submitted(spec), AssetFolder.of(submitted(spec)));
        VertexJobs jobs = new VertexJobs(region -> vertex.client, new QuotaLimiter(60, Duration.ofMinutes(1)),
                new QuotaLimiter(600, Duration.ofMinutes(1)));
        jobs.createOnce(built, JOB, 1);
        assertThat(vertex.creations).hasSize(1);
        return vertex.creations.getFirst();
    }

    private CreateCustomJobRequest received(JobSpec spec, String tensorboard) throws InterruptedException {
        return received(spec, properties(tensorboard));
    }

    private static List<String> baseArgs() {
        return List.of("--job_name=my_job", "--task_config_uri=" + CONFIGS + "frozen_task_config.yaml",
                "--resource_config_uri=" + CONFIGS + "resource_config.yaml");
    }

    private static List<String> trainerArgs(boolean useCuda) {
        List<String> args = new ArrayList<>(baseArgs());
        if (useCuda) {
            args.add("--use_cuda");
        }
        args.addAll(List.of("--num_neighbors=[10, 10]", "--learning_rate=0.001"));
        return args;
    }

    /** GiGL's runtime variables of every container (get_gigl_runtime_env_vars), after the launcher's own. */
    private static Map<String, String> giglEnv(String cpuImage, String cudaImage) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("GIGL_APPLIED_TASK_IDENTIFIER", "my_job");
        env.put("GIGL_TASK_CONFIG_URI", CONFIGS + "frozen_task_config.yaml");
        env.put("GIGL_RESOURCE_CONFIG_URI", CONFIGS + "resource_config.yaml");
        env.put("GIGL_COMPONENT", "Trainer");
        env.put("GIGL_CPU_DOCKER_URI", cpuImage);
        env.put("GIGL_CUDA_DOCKER_URI", cudaImage);
        return env;
    }

    /** A single-pool job's environment: launch_job puts the leader's address file first. */
    private static Map<String, String> singlePoolEnv(String leaderAddress) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("LEADER_WORKER_INTERNAL_IP_FILE_PATH", leaderAddress);
        env.put("TF_CPP_MIN_LOG_LEVEL", "3");
        env.putAll(giglEnv(CPU_IMAGE, CUDA_IMAGE));
        return env;
    }

    private static ContainerSpec.Builder container(String image, List<String> command, List<String> args, Map<String, String> env) {
        ContainerSpec.Builder container = ContainerSpec.newBuilder().setImageUri(image).addAllCommand(command).addAllArgs(args);
        env.forEach((name, value) -> container.addEnv(EnvVar.newBuilder().setName(name).setValue(value)));
        return container;
    }

    private static CustomJob.Builder job(String displayName, CustomJobSpec.Builder spec) {
        return CustomJob.newBuilder().setDisplayName(displayName).setJobSpec(spec
                        .setServiceAccount("trainer@my-project.iam.gserviceaccount.com").setEnableWebAccess(true))
                .putLabels("cost_resource_group_tag", "dev_tra").putLabels("team", "ranking")
                .putLabels("trainyard_job_id", JOB.toString()).putLabels("trainyard_attempt", "1");
    }

    private static DiskSpec.Builder disk(int gb) {
        return DiskSpec.newBuilder().setBootDiskType("pd-ssd").setBootDiskSizeGb(gb);
    }

    private static Scheduling.Builder timeout(long seconds) {
        return Scheduling.newBuilder().setTimeout(com.google.protobuf.Duration.newBuilder().setSeconds(seconds));
    }

    private static MachineSpec.Builder cpuMachine(String machineType) {
        return MachineSpec.newBuilder().setMachineType(machineType).setAcceleratorType(AcceleratorType.ACCELERATOR_TYPE_UNSPECIFIED);
    }

    @Test
    void multiReplicaGpuJobHasALeaderPoolAndAPoolOfTheOtherReplicas() throws Exception {
        JobSpec spec = spec(TASK, resource("""
                vertexAiTrainerConfig:
                  machineType: n1-highmem-32
                  gpuType: nvidia-tesla-t4
                  gpuLimit: 2
                  numReplicas: 3
                """), 86_400);
        WorkerPoolSpec.Builder pool = WorkerPoolSpec.newBuilder()
                .setMachineSpec(MachineSpec.newBuilder().setMachineType("n1-highmem-32")
                        .setAcceleratorType(AcceleratorType.NVIDIA_TESLA_T4).setAcceleratorCount(2))
                .setContainerSpec(container(CUDA_IMAGE, List.of("python", "-m", "examples.link_prediction.train"),
                        trainerArgs(true), singlePoolEnv(LEADER_ADDRESS)))
                .setDiskSpec(disk(100));
        CreateCustomJobRequest expected = CreateCustomJobRequest.newBuilder()
                .setParent("projects/my-project/locations/us-central1")
                .setCustomJob(job("gigl_train_my_job", CustomJobSpec.newBuilder()
                        .addWorkerPoolSpecs(pool.clone().setReplicaCount(1))
                        .addWorkerPoolSpecs(pool.clone().setReplicaCount(2))
                        .setScheduling(timeout(86_400))))
                .build();

        assertThat(received(spec, (String) null)).isEqualTo(expected);
    }

    @Test
    void aJobsOwnImagesReplaceTheServerDefaultsInPoolsAndEnvironment() {
        String resource = resource("""
                vertexAiTrainerConfig:
                  machineType: n1-highmem-32
                  gpuType: NVIDIA_TESLA_T4
                  gpuLimit: 1
                  numReplicas: 2
                """);
        JobSpec own = spec(TASK, resource, 86_400, new TrainerImages("us-docker.pkg.dev/p/mine/cpu:2", "us-docker.pkg.dev/p/mine/cuda:2"));
        JobSpec defaults = spec(TASK, resource, 86_400);
        CustomJobBuilder builder = new CustomJobBuilder(properties(null));

        CustomJob withOwn = builder.build(submitted(own), AssetFolder.of(submitted(own))).getCustomJob();
        CustomJob withDefaults = builder.build(submitted(defaults), AssetFolder.of(submitted(defaults))).getCustomJob();

        assertThat(withOwn.getJobSpec().getWorkerPoolSpecsList()).allSatisfy(pool -> {
            assertThat(pool.getContainerSpec().getImageUri()).isEqualTo("us-docker.pkg.dev/p/mine/cuda:2");
            assertThat(pool.getContainerSpec().getEnvList()).contains(
                    EnvVar.newBuilder().setName("GIGL_CPU_DOCKER_URI").setValue("us-docker.pkg.dev/p/mine/cpu:2").build(),
                    EnvVar.newBuilder().setName("GIGL_CUDA_DOCKER_URI").setValue("us-docker.pkg.dev/p/mine/cuda:2").build());
        });
        assertThat(withDefaults.getJobSpec().getWorkerPoolSpecsList())
                .allSatisfy(pool -> assertThat(pool.getContainerSpec().getImageUri()).isEqualTo(CUDA_IMAGE));
    }

    // GiGL's launcher runs DEFAULT_GIGL_RELEASE_SRC_IMAGE_CPU/_CUDA (gigl/common/constants.py, dep_vars.env) when no
    // image is named, and passes its own environment's GIGL_BIGQUERY_QUOTA_PROJECT on (gigl/src/common/utils/gigl_env.py).
    @Test
    void withoutAnyImageNamedGiglsReleaseImagesRunAndTheQuotaProjectIsPassedOn() {
        JobSpec spec = spec(TASK, resource("""
                vertexAiTrainerConfig:
                  machineType: n1-standard-8
                  gpuType: NVIDIA_TESLA_T4
                  gpuLimit: 1
                  numReplicas: 1
                """), 86_400);
        CustomJob customJob = new CustomJobBuilder(properties(null, " ", null, "billing-project"))
                .build(submitted(spec), AssetFolder.of(submitted(spec))).getCustomJob();

        ContainerSpec container = customJob.getJobSpec().getWorkerPoolSpecs(0).getContainerSpec();
        assertThat(container.getImageUri()).isEqualTo(
                "us-central1-docker.pkg.dev/external-snap-ci-github-gigl/public-gigl/src-cuda:0.0.9.dev20251005191521");
        assertThat(container.getEnvList()).contains(
                EnvVar.newBuilder().setName("GIGL_CPU_DOCKER_URI")
                        .setValue("us-central1-docker.pkg.dev/external-snap-ci-github-gigl/public-gigl/src-cpu:0.0.9.dev20251005191521").build(),
                EnvVar.newBuilder().setName("GIGL_BIGQUERY_QUOTA_PROJECT").setValue("billing-project").build());
    }

    // Zero is proto3's unset: GiGL's _build_job_config takes "timeout or None" and "boot_disk_size_gb or 100".
    @Test
    void singleReplicaCpuJobRunsTheCpuImageWithoutUseCudaInItsRegionOverride() throws Exception {
        JobSpec spec = spec(TASK, resource("""
                vertexAiTrainerConfig:
                  machineType: n2-standard-16
                  gpuType: ACCELERATOR_TYPE_UNSPECIFIED
                  numReplicas: 1
                  bootDiskSizeGb: 250
                  timeout: 7200
                  gcpRegionOverride: europe-west4
                """), 7200);
        CreateCustomJobRequest expected = CreateCustomJobRequest.newBuilder()
                .setParent("projects/my-project/locations/europe-west4")
                .setCustomJob(job("gigl_train_my_job", CustomJobSpec.newBuilder()
                        .addWorkerPoolSpecs(WorkerPoolSpec.newBuilder().setReplicaCount(1)
                                .setMachineSpec(cpuMachine("n2-standard-16"))
                                .setContainerSpec(container(CPU_IMAGE, List.of("python", "-m", "examples.link_prediction.train"),
                                        trainerArgs(false), singlePoolEnv(LEADER_ADDRESS)))
                                .setDiskSpec(disk(250)))
                        .setScheduling(timeout(7200))))
                .build();

        assertThat(received(spec, (String) null)).isEqualTo(expected);
        JobSpec zeros = spec(TASK, resource("""
                vertexAiTrainerConfig: {machineType: n2-standard-16, gpuType: ACCELERATOR_TYPE_UNSPECIFIED, numReplicas: 1,
                  bootDiskSizeGb: 0, timeout: 0}
                """), 86_400);
        assertThat(zeros.resource().trainer()).isInstanceOfSatisfying(io.trainyard.gigl.TrainerResource.VertexAi.class, vertex -> {
            assertThat(vertex.timeoutSeconds()).isNull();
            assertThat(vertex.bootDiskSizeGb()).isNull();
        });
        assertThat(new CustomJobBuilder(properties(null)).build(submitted(zeros), AssetFolder.of(submitted(zeros)))
                .getCustomJob().getJobSpec().getWorkerPoolSpecs(0).getDiskSpec()).isEqualTo(disk(100).build());
    }

    @Test
    void reservationSchedulingStrategyAndTensorBoardAreSet() throws Exception {
        JobSpec spec = spec(TASK, resource("""
                vertexAiTrainerConfig:
                  machineType: a2-highgpu-1g
                  gpuType: NVIDIA_TESLA_A100
                  gpuLimit: 1
                  numReplicas: 1
                  schedulingStrategy: SPOT
                  reservationAffinity:
                    type: SPECIFIC_RESERVATION
                    reservationResourceNames: [projects/my-project/zones/us-central1-a/reservations/r1]
                """), 86_400);
        String tensorboard = "projects/my-project/locations/us-central1/tensorboards/42";
        CreateCustomJobRequest expected = CreateCustomJobRequest.newBuilder()
                .setParent("projects/my-project/locations/us-central1")
                .setCustomJob(job("gigl_train_my_job", CustomJobSpec.newBuilder()
                        .addWorkerPoolSpecs(WorkerPoolSpec.newBuilder().setReplicaCount(1)
                                .setMachineSpec(MachineSpec.newBuilder().setMachineType("a2-highgpu-1g")
                                        .setAcceleratorType(AcceleratorType.NVIDIA_TESLA_A100).setAcceleratorCount(1)
                                        .setReservationAffinity(ReservationAffinity.newBuilder()
                                                .setReservationAffinityType(ReservationAffinity.Type.SPECIFIC_RESERVATION)
                                                .setKey("compute.googleapis.com/reservation-name")
                                                .addValues("projects/my-project/zones/us-central1-a/reservations/r1")))
                                .setContainerSpec(container(CUDA_IMAGE, List.of("python", "-m", "examples.link_prediction.train"),
                                        trainerArgs(true), singlePoolEnv(LEADER_ADDRESS)))
                                .setDiskSpec(disk(100)))
                        .setScheduling(timeout(86_400).setStrategy(Scheduling.Strategy.SPOT))
                        .setTensorboard(tensorboard)
                        // GiGL's base output directory: the parent of the TensorBoard log folder.
                        .setBaseOutputDirectory(GcsDestination.newBuilder().setOutputUriPrefix("gs://perm-assets/my_job/trainer"))))
                .build();

        assertThat(received(spec, tensorboard)).isEqualTo(expected);
    }

    // vertex_ai.py launch_graph_store_job: pool 0 the compute leader, pool 1 the other compute replicas (or {}),
    // pool 2 the storage replicas; job name, timeout, web access and scheduling from the compute pool's config, and
    // both containers get the compute config's environment (no leader address file: launch_job alone sets that).
    @Test
    void graphStoreJobHasTheComputeLeaderTheComputeWorkersAndTheStoragePoolInGiglsOrder() throws Exception {
        JobSpec spec = spec(GRAPH_STORE_TASK, resource("""
                vertexAiGraphStoreTrainerConfig:
                  graphStorePool:
                    machineType: n2-highmem-64
                    gpuType: ACCELERATOR_TYPE_UNSPECIFIED
                    numReplicas: 2
                    timeout: 60
                    schedulingStrategy: SPOT
                  computePool:
                    machineType: n1-standard-16
                    gpuType: NVIDIA_TESLA_T4
                    gpuLimit: 4
                    numReplicas: 3
                    timeout: 7200
                    schedulingStrategy: FLEX_START
                    tensorboardResourceName: projects/my-project/locations/us-central1/tensorboards/9
                """), 7200);
        Map<String, String> env = new LinkedHashMap<>();
        env.put("TF_CPP_MIN_LOG_LEVEL", "3");
        env.put("COMPUTE_CLUSTER_LOCAL_WORLD_SIZE", "4");
        env.putAll(giglEnv(CPU_IMAGE, CUDA_IMAGE));
        WorkerPoolSpec.Builder compute = WorkerPoolSpec.newBuilder()
                .setMachineSpec(MachineSpec.newBuilder().setMachineType("n1-standard-16")
                        .setAcceleratorType(AcceleratorType.NVIDIA_TESLA_T4).setAcceleratorCount(4))
                .setContainerSpec(container(CUDA_IMAGE, List.of("python", "-m", "examples.link_prediction.train"), trainerArgs(true), env))
                .setDiskSpec(disk(100));
        List<String> storageArgs = new ArrayList<>(baseArgs());
        storageArgs.add("--num_server_sessions=2");
        CreateCustomJobRequest expected = CreateCustomJobRequest.newBuilder()
                .setParent("projects/my-project/locations/us-central1")
                .setCustomJob(job("gigl_train_my_job", CustomJobSpec.newBuilder()
                        .addWorkerPoolSpecs(compute.clone().setReplicaCount(1))
                        .addWorkerPoolSpecs(compute.clone().setReplicaCount(2))
                        .addWorkerPoolSpecs(WorkerPoolSpec.newBuilder().setReplicaCount(2)
                                .setMachineSpec(cpuMachine("n2-highmem-64"))
                                .setContainerSpec(container(CPU_IMAGE, List.of("python", "-m", "gigl.distributed.graph_store.storage_main"),
                                        storageArgs, env))
                                .setDiskSpec(disk(100)))
                        .setScheduling(timeout(7200).setStrategy(Scheduling.Strategy.FLEX_START))
                        .setTensorboard("projects/my-project/locations/us-central1/tensorboards/9")
                        .setBaseOutputDirectory(GcsDestination.newBuilder().setOutputUriPrefix("gs://perm-assets/my_job/trainer"))))
                .build();

        assertThat(received(spec, (String) null)).isEqualTo(expected);
    }

    @Test
    void aGraphStoreJobWithOneComputeReplicaHasAnEmptySecondPool() {
        JobSpec spec = spec(GRAPH_STORE_TASK, resource("""
                vertexAiGraphStoreTrainerConfig:
                  graphStorePool: {machineType: n2-highmem-32, gpuType: ACCELERATOR_TYPE_UNSPECIFIED, numReplicas: 1}
                  computePool: {machineType: n2-standard-16, gpuType: ACCELERATOR_TYPE_UNSPECIFIED, numReplicas: 1}
                """), 86_400);
        List<WorkerPoolSpec> pools = new CustomJobBuilder(properties(null)).build(submitted(spec), AssetFolder.of(submitted(spec)))
                .getCustomJob().getJobSpec().getWorkerPoolSpecsList();

        assertThat(pools).hasSize(3);
        assertThat(pools.get(0).getContainerSpec().getCommandList()).containsExactly("python", "-m", "examples.link_prediction.train");
        assertThat(pools.get(1)).isEqualTo(WorkerPoolSpec.getDefaultInstance());
        assertThat(pools.get(2).getContainerSpec().getCommandList()).containsExactly("python", "-m", "gigl.distributed.graph_store.storage_main");
        // A CPU compute pool runs one sampling process per machine; neither pool gets --use_cuda.
        assertThat(pools.get(0).getContainerSpec().getEnvList())
                .contains(EnvVar.newBuilder().setName("COMPUTE_CLUSTER_LOCAL_WORLD_SIZE").setValue("1").build());
        assertThat(pools).extracting(pool -> pool.getContainerSpec().getArgsList()).noneMatch(args -> args.contains("--use_cuda"));
    }

    // GiGL's v1 trainer (gigl/src/training/v1/trainer.py, and its test tests/unit/src/training/v1/trainer_test.py):
    // the CustomJob is named after the bare job, launched in the resource config's region, and runs the v1 training
    // process with --cpu_docker_uri and --cuda_docker_uri always given (release images when none is named).
    @Test
    void theLegacyTrainerRunsGiglsV1TrainingProcessNamedAfterTheJobInTheConfigsRegion() throws Exception {
        JobSpec spec = spec(LEGACY_TASK, resource("""
                vertexAiTrainerConfig:
                  machineType: n1-highmem-8
                  gpuType: NVIDIA_TESLA_T4
                  gpuLimit: 1
                  numReplicas: 1
                  gcpRegionOverride: europe-west4
                """), 86_400);
        List<String> args = new ArrayList<>(baseArgs());
        args.addAll(List.of("--cpu_docker_uri=" + CPU_IMAGE, "--cuda_docker_uri=" + CUDA_IMAGE, "--use_cuda"));
        CreateCustomJobRequest expected = CreateCustomJobRequest.newBuilder()
                .setParent("projects/my-project/locations/us-central1")
                .setCustomJob(job("my_job", CustomJobSpec.newBuilder()
                        .addWorkerPoolSpecs(WorkerPoolSpec.newBuilder().setReplicaCount(1)
                                .setMachineSpec(MachineSpec.newBuilder().setMachineType("n1-highmem-8")
                                        .setAcceleratorType(AcceleratorType.NVIDIA_TESLA_T4).setAcceleratorCount(1))
                                .setContainerSpec(container(CUDA_IMAGE, List.of("python", "-m", "gigl.src.training.v1.lib.training_process"),
                                        args, singlePoolEnv("gs://tmp-regional/my_job/19700101-000000/leader_worker_internal_ip.txt")))
                                .setDiskSpec(disk(100)))
                        .setScheduling(timeout(86_400))))
                .build();

        assertThat(received(spec, (String) null)).isEqualTo(expected);
    }

    @Test
    void unknownAcceleratorAndStrategyAreRefusedWithTheirFields() {
        JobSpec spec = spec(TASK, resource("""
                vertexAiTrainerConfig:
                  machineType: n1-standard-4
                  gpuType: nvidia-tesla-x9000
                  gpuLimit: 1
                  numReplicas: 1
                  schedulingStrategy: CHEAPEST
                """), 86_400);
        CustomJobBuilder builder = new CustomJobBuilder(properties(null));
        assertThatThrownBy(() -> builder.build(submitted(spec), AssetFolder.of(submitted(spec))))
                .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.violations())
                        .extracting(v -> v.field())
                        .containsExactlyInAnyOrder("resourceConfig.trainerResourceConfig.gpuType",
                                "resourceConfig.trainerResourceConfig.schedulingStrategy"));
    }

    @Test
    void dryRunAnswersTheRequestAsTheJsonOfItsProto() throws Exception {
        JobSpec spec = spec(TASK, resource("""
                vertexAiTrainerConfig:
                  machineType: n1-standard-4
                  gpuType: ACCELERATOR_TYPE_UNSPECIFIED
                  numReplicas: 2
                """), 86_400);
        Map<String, Object> json = new VertexAiBackend(properties(null), "test-node", null, null).plan(submitted(spec)).customJobRequest();

        assertThat(json).containsEntry("parent", "projects/my-project/locations/us-central1");
        CreateCustomJobRequest.Builder parsed = CreateCustomJobRequest.newBuilder();
        JsonFormat.parser().merge(JsonMapper.builder().build().writeValueAsString(json), parsed);
        assertThat(parsed.build()).isEqualTo(new CustomJobBuilder(properties(null)).build(submitted(spec), AssetFolder.of(submitted(spec))));
    }
}

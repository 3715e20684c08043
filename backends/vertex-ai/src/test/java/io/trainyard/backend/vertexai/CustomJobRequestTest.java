package io.trainyard.backend.vertexai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
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
import io.trainyard.job.TrainerImages;
import io.trainyard.validation.InvalidRequestException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The CustomJob request GiGL's launcher would send, as Vertex AI receives it from the real client: each
 * test compares the whole request proto.
 */
class CustomJobRequestTest {

    static final UUID JOB = UUID.fromString("3f1c9a52-7d4e-4b8a-9c0d-2e6f8a1b4c7d");
    static final String CPU_IMAGE = "us-docker.pkg.dev/p/gigl/src-cpu:1.0";
    static final String CUDA_IMAGE = "us-docker.pkg.dev/p/gigl/src-cuda:1.0";
    static final String CONFIGS = "gs://tmp-assets/my_job/trainyard/" + JOB + "/";

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
              graphStoreStorageConfig:
                command: python -m gigl.distributed.graph_store.storage_main
                storageArgs:
                  num_server_sessions: "2"
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
                    gcpServiceAccountEmail: trainer@my-project.iam.gserviceaccount.com
                trainerResourceConfig:
                """ + trainer.indent(2);
    }

    /** The job as submitted: attempt 1 of id {@link #JOB}. */
    static Job submitted(JobSpec spec) {
        return new Job(JOB, spec, "tester", null, null, Instant.EPOCH);
    }

    static JobSpec spec(String task, String resource, long timeoutSeconds) {
        return new JobSpec("my_job", VertexAiBackend.NAME, "default", TaskConfigReader.read("taskConfig", task),
                ResourceConfigReader.read("resourceConfig", resource), task, resource, null, null, Map.of(), 0, false,
                timeoutSeconds, 1, 1, 30, TrainerImages.SERVER_DEFAULTS);
    }

    static VertexAiProperties properties(String tensorboard) {
        return new VertexAiProperties("my-project", "us-central1", CPU_IMAGE, CUDA_IMAGE, tensorboard, null, null, false,
                Duration.ofMillis(20), Duration.ofMillis(80), 60, 600, 60, Duration.ZERO);
    }

    private final FakeVertex vertex = new FakeVertex();

    CustomJobRequestTest() throws Exception {
    }

    @AfterEach
    void close() {
        vertex.close();
    }

    /** Sends the built request through the real client and answers what the fake Vertex received. */
    private CreateCustomJobRequest received(JobSpec spec, String tensorboard) throws InterruptedException {
        CreateCustomJobRequest built = new CustomJobBuilder(properties(tensorboard)).build(submitted(spec), AssetFolder.of(submitted(spec)));
        VertexJobs jobs = new VertexJobs(region -> vertex.client, new QuotaLimiter(60, Duration.ofMinutes(1)),
                new QuotaLimiter(600, Duration.ofMinutes(1)));
        jobs.createOnce(built, JOB, 1);
        assertThat(vertex.creations).hasSize(1);
        return vertex.creations.getFirst();
    }

    private static List<String> trainerArgs(boolean useCuda) {
        List<String> args = new java.util.ArrayList<>(List.of("--job_name=my_job",
                "--task_config_uri=" + CONFIGS + "frozen_task_config.yaml",
                "--resource_config_uri=" + CONFIGS + "resource_config.yaml"));
        if (useCuda) {
            args.add("--use_cuda");
        }
        args.addAll(List.of("--num_neighbors=[10, 10]", "--learning_rate=0.001"));
        return args;
    }

    private static ContainerSpec.Builder container(String image, List<String> command, List<String> args, Map<String, String> extraEnv) {
        ContainerSpec.Builder container = ContainerSpec.newBuilder().setImageUri(image).addAllCommand(command).addAllArgs(args)
                .addEnv(env("TF_CPP_MIN_LOG_LEVEL", "3"))
                .addEnv(env("GIGL_APPLIED_TASK_IDENTIFIER", "my_job"))
                .addEnv(env("GIGL_TASK_CONFIG_URI", CONFIGS + "frozen_task_config.yaml"))
                .addEnv(env("GIGL_RESOURCE_CONFIG_URI", CONFIGS + "resource_config.yaml"))
                .addEnv(env("GIGL_COMPONENT", "Trainer"));
        extraEnv.forEach((name, value) -> container.addEnv(env(name, value)));
        return container;
    }

    private static EnvVar env(String name, String value) {
        return EnvVar.newBuilder().setName(name).setValue(value).build();
    }

    private static CustomJob.Builder job(CustomJobSpec.Builder spec) {
        return CustomJob.newBuilder().setDisplayName("gigl_train_my_job").setJobSpec(spec
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
                .setContainerSpec(container(CUDA_IMAGE, List.of("python", "-m", "examples.link_prediction.train"), trainerArgs(true), Map.of()))
                .setDiskSpec(disk(100));
        CreateCustomJobRequest expected = CreateCustomJobRequest.newBuilder()
                .setParent("projects/my-project/locations/us-central1")
                .setCustomJob(job(CustomJobSpec.newBuilder()
                        .addWorkerPoolSpecs(pool.clone().setReplicaCount(1))
                        .addWorkerPoolSpecs(pool.clone().setReplicaCount(2))
                        .setScheduling(timeout(86_400))))
                .build();

        assertThat(received(spec, null)).isEqualTo(expected);
    }

    @Test
    void aJobsOwnImagesReplaceTheServerDefaults() {
        String resource = resource("""
                vertexAiTrainerConfig:
                  machineType: n1-highmem-32
                  gpuType: NVIDIA_TESLA_T4
                  gpuLimit: 1
                  numReplicas: 2
                """);
        JobSpec defaults = spec(TASK, resource, 86_400);
        JobSpec own = new JobSpec(defaults.jobName(), defaults.backend(), defaults.project(), defaults.task(), defaults.resource(),
                defaults.taskConfigYaml(), defaults.resourceConfigYaml(), null, null, Map.of(), 0, false, 86_400, 1, 1, 30,
                new TrainerImages("us-docker.pkg.dev/p/mine/cpu:2", "us-docker.pkg.dev/p/mine/cuda:2"));
        CustomJobBuilder builder = new CustomJobBuilder(properties(null));

        CustomJob withOwn = builder.build(submitted(own), AssetFolder.of(submitted(own))).getCustomJob();
        CustomJob withDefaults = builder.build(submitted(defaults), AssetFolder.of(submitted(defaults))).getCustomJob();

        assertThat(withOwn.getJobSpec().getWorkerPoolSpecsList())
                .allSatisfy(pool -> assertThat(pool.getContainerSpec().getImageUri()).isEqualTo("us-docker.pkg.dev/p/mine/cuda:2"));
        assertThat(withDefaults.getJobSpec().getWorkerPoolSpecsList())
                .allSatisfy(pool -> assertThat(pool.getContainerSpec().getImageUri()).isEqualTo(CUDA_IMAGE));
    }

    @Test
    void singleReplicaCpuJobRunsTheCpuImageWithoutUseCudaInItsRegionOverride() throws Exception {
        JobSpec spec = spec(TASK, resource("""
                vertexAiTrainerConfig:
                  machineType: n2-standard-16
                  numReplicas: 1
                  bootDiskSizeGb: 250
                  timeout: 7200
                  gcpRegionOverride: europe-west4
                """), 7200);
        CreateCustomJobRequest expected = CreateCustomJobRequest.newBuilder()
                .setParent("projects/my-project/locations/europe-west4")
                .setCustomJob(job(CustomJobSpec.newBuilder()
                        .addWorkerPoolSpecs(WorkerPoolSpec.newBuilder().setReplicaCount(1)
                                .setMachineSpec(MachineSpec.newBuilder().setMachineType("n2-standard-16")
                                        .setAcceleratorType(AcceleratorType.ACCELERATOR_TYPE_UNSPECIFIED))
                                .setContainerSpec(container(CPU_IMAGE, List.of("python", "-m", "examples.link_prediction.train"), trainerArgs(false), Map.of()))
                                .setDiskSpec(disk(250)))
                        .setScheduling(timeout(7200))))
                .build();

        assertThat(received(spec, null)).isEqualTo(expected);
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
                .setCustomJob(job(CustomJobSpec.newBuilder()
                        .addWorkerPoolSpecs(WorkerPoolSpec.newBuilder().setReplicaCount(1)
                                .setMachineSpec(MachineSpec.newBuilder().setMachineType("a2-highgpu-1g")
                                        .setAcceleratorType(AcceleratorType.NVIDIA_TESLA_A100).setAcceleratorCount(1)
                                        .setReservationAffinity(ReservationAffinity.newBuilder()
                                                .setReservationAffinityType(ReservationAffinity.Type.SPECIFIC_RESERVATION)
                                                .setKey("compute.googleapis.com/reservation-name")
                                                .addValues("projects/my-project/zones/us-central1-a/reservations/r1")))
                                .setContainerSpec(container(CUDA_IMAGE, List.of("python", "-m", "examples.link_prediction.train"), trainerArgs(true), Map.of()))
                                .setDiskSpec(disk(100)))
                        .setScheduling(timeout(86_400).setStrategy(Scheduling.Strategy.SPOT))
                        .setTensorboard(tensorboard)
                        // GiGL's base output directory: the parent of the TensorBoard log folder.
                        .setBaseOutputDirectory(GcsDestination.newBuilder().setOutputUriPrefix("gs://perm-assets/my_job/trainer"))))
                .build();

        assertThat(received(spec, tensorboard)).isEqualTo(expected);
    }

    @Test
    void graphStoreJobHasStoragePoolsAPaddingPoolAndTheComputePoolFourth() throws Exception {
        JobSpec spec = spec(TASK, resource("""
                vertexAiGraphStoreTrainerConfig:
                  graphStorePool:
                    machineType: n2-highmem-64
                    numReplicas: 2
                  computePool:
                    machineType: n1-standard-16
                    gpuType: NVIDIA_TESLA_T4
                    gpuLimit: 4
                    numReplicas: 3
                """), 86_400);
        Map<String, String> cluster = new java.util.LinkedHashMap<>();
        cluster.put("COMPUTE_CLUSTER_LOCAL_WORLD_SIZE", "4");
        cluster.put("GIGL_STORAGE_CLUSTER_MASTER_RANK", "0");
        cluster.put("GIGL_COMPUTE_CLUSTER_MASTER_RANK", "2");
        cluster.put("GIGL_STORAGE_CLUSTER_NUM_NODES", "2");
        cluster.put("GIGL_COMPUTE_CLUSTER_NUM_NODES", "3");
        WorkerPoolSpec.Builder storage = WorkerPoolSpec.newBuilder()
                .setMachineSpec(MachineSpec.newBuilder().setMachineType("n2-highmem-64")
                        .setAcceleratorType(AcceleratorType.ACCELERATOR_TYPE_UNSPECIFIED))
                .setContainerSpec(container(CPU_IMAGE, List.of("python", "-m", "gigl.distributed.graph_store.storage_main"),
                        List.of("--job_name=my_job", "--task_config_uri=" + CONFIGS + "frozen_task_config.yaml",
                                "--resource_config_uri=" + CONFIGS + "resource_config.yaml", "--num_server_sessions=2"), cluster))
                .setDiskSpec(disk(100));
        CreateCustomJobRequest expected = CreateCustomJobRequest.newBuilder()
                .setParent("projects/my-project/locations/us-central1")
                .setCustomJob(job(CustomJobSpec.newBuilder()
                        .addWorkerPoolSpecs(storage.clone().setReplicaCount(1))
                        .addWorkerPoolSpecs(storage.clone().setReplicaCount(1))
                        .addWorkerPoolSpecs(WorkerPoolSpec.getDefaultInstance())
                        .addWorkerPoolSpecs(WorkerPoolSpec.newBuilder().setReplicaCount(3)
                                .setMachineSpec(MachineSpec.newBuilder().setMachineType("n1-standard-16")
                                        .setAcceleratorType(AcceleratorType.NVIDIA_TESLA_T4).setAcceleratorCount(4))
                                .setContainerSpec(container(CUDA_IMAGE, List.of("python", "-m", "examples.link_prediction.train"), trainerArgs(true), cluster))
                                .setDiskSpec(disk(100)))
                        .setScheduling(timeout(86_400))))
                .build();

        assertThat(received(spec, null)).isEqualTo(expected);
    }

    @Test
    void unknownAcceleratorAndStrategyAreRefusedWithTheirFields() {
        JobSpec spec = spec(TASK, resource("""
                vertexAiTrainerConfig:
                  machineType: n1-standard-4
                  gpuType: nvidia-tesla-x9000
                  gpuLimit: 1
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
                  numReplicas: 2
                """), 86_400);
        Map<String, Object> json = new VertexAiBackend(properties(null), "test-node", null, null).plan(submitted(spec)).customJobRequest();

        assertThat(json).containsEntry("parent", "projects/my-project/locations/us-central1");
        CreateCustomJobRequest.Builder parsed = CreateCustomJobRequest.newBuilder();
        JsonFormat.parser().merge(JsonMapper.builder().build().writeValueAsString(json), parsed);
        assertThat(parsed.build()).isEqualTo(new CustomJobBuilder(properties(null)).build(submitted(spec), AssetFolder.of(submitted(spec))));
    }
}

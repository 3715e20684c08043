package io.trainyard.backend.vertexai;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
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
import com.google.cloud.aiplatform.v1.LocationName;
import com.google.cloud.aiplatform.v1.MachineSpec;
import com.google.cloud.aiplatform.v1.ReservationAffinity;
import com.google.cloud.aiplatform.v1.Scheduling;
import com.google.cloud.aiplatform.v1.WorkerPoolSpec;
import com.google.protobuf.Duration;
import io.trainyard.gigl.ResourceConfig;
import io.trainyard.gigl.TaskConfig;
import io.trainyard.gigl.TrainerResource;
import io.trainyard.job.Job;
import io.trainyard.validation.InvalidRequestException;
import io.trainyard.validation.Violation;

/**
 * The CustomJob request GiGL's launcher would send for a trainer job ({@code launch_single_pool_job},
 * {@code launch_graph_store_enabled_job}): the leader pool of one replica and a pool of the other
 * {@code numReplicas-1}, the CPU or CUDA image, GiGL's command line and environment, pd-ssd boot disk,
 * timeout, scheduling strategy, reservation affinity, service account and labels. Trainyard adds two labels,
 * its job id and attempt, because Vertex AI has no idempotency key and the CustomJob is found again by them.
 */
final class CustomJobBuilder {

    static final String JOB_ID_LABEL = "trainyard_job_id";
    static final String ATTEMPT_LABEL = "trainyard_attempt";
    static final String LEGACY_TRAINER_MODULE = "gigl.src.training.v1.lib.training_process";
    private static final String RESERVATION_KEY = "compute.googleapis.com/reservation-name";
    private static final String NO_ACCELERATOR = "ACCELERATOR_TYPE_UNSPECIFIED";
    private static final int DEFAULT_BOOT_DISK_GB = 100;
    /** GiGL's label values carry this placeholder for the component; the trainer's abbreviation replaces it. */
    private static final String COMPONENT_PLACEHOLDER = "COMPONENT";
    private static final String TRAINER_ABBREVIATION = "tra";

    private final VertexAiProperties properties;

    CustomJobBuilder(VertexAiProperties properties) {
        this.properties = properties;
    }

    /** @throws InvalidRequestException for a job Vertex AI would refuse (unknown accelerator, strategy, no image) */
    CreateCustomJobRequest build(Job job, AssetFolder assets) {
        UUID jobId = job.getId();
        int attempt = job.getAttempt();
        List<Violation> violations = new ArrayList<>();
        TaskConfig task = job.getTask();
        ResourceConfig.CommonComputeConfig compute = job.getResource().commonComputeConfig();
        CustomJobSpec.Builder jobSpec = CustomJobSpec.newBuilder()
                .setServiceAccount(compute.gcpServiceAccountEmail())
                .setEnableWebAccess(true);
        TrainerResource.VertexAi timing;
        String region;
        if (job.getResource().trainer() instanceof TrainerResource.VertexAiGraphStore graphStore) {
            addGraphStorePools(jobSpec, jobId, job, assets, graphStore, violations);
            // GiGL takes the timeout and scheduling from the storage pool and the region from the compute pool.
            timing = graphStore.graphStorePool();
            region = regionOf(graphStore.computePool(), compute);
        } else {
            TrainerResource.VertexAi vertex = (TrainerResource.VertexAi) job.getResource().trainer();
            WorkerPoolSpec.Builder pool = pool(vertex, trainerContainer(job, assets, vertex, Map.of(), violations), violations);
            jobSpec.addWorkerPoolSpecs(pool.clone().setReplicaCount(1));
            if (vertex.numReplicas() > 1) {
                jobSpec.addWorkerPoolSpecs(pool.clone().setReplicaCount(vertex.numReplicas() - 1));
            }
            timing = vertex;
            region = regionOf(vertex, compute);
        }
        jobSpec.setScheduling(scheduling(job, timing, violations));
        String tensorboard = timing.tensorboardResourceName() != null ? timing.tensorboardResourceName() : properties.tensorboard();
        if (tensorboard != null && !tensorboard.isBlank()) {
            // Vertex then hands the job AIP_TENSORBOARD_LOG_DIR under this directory and uploads what it writes.
            jobSpec.setTensorboard(tensorboard)
                    .setBaseOutputDirectory(GcsDestination.newBuilder().setOutputUriPrefix(baseOutputDirectory(task, assets)));
        }
        if (!violations.isEmpty()) {
            throw new InvalidRequestException(violations);
        }
        CustomJob customJob = CustomJob.newBuilder()
                .setDisplayName(task.shouldRunGltBackend() ? "gigl_train_" + job.getJobName() : job.getJobName())
                .setJobSpec(jobSpec)
                .putAllLabels(labels(jobId, attempt, job.getResource().resourceLabels()))
                .build();
        return CreateCustomJobRequest.newBuilder()
                .setParent(LocationName.of(compute.project(), region).toString())
                .setCustomJob(customJob)
                .build();
    }

    /** The region a CustomJob of this job runs in: the pool's override, else the resource config's. */
    static String regionOf(TrainerResource trainer, ResourceConfig.CommonComputeConfig compute) {
        TrainerResource.VertexAi pool = trainer instanceof TrainerResource.VertexAiGraphStore graphStore
                ? graphStore.computePool() : (TrainerResource.VertexAi) trainer;
        return pool.gcpRegionOverride() != null && !pool.gcpRegionOverride().isBlank()
                ? pool.gcpRegionOverride() : compute.region();
    }

    /**
     * Storage pool first (leader of one replica, then the rest, or an empty pool), an empty third pool, and
     * the compute pool fourth: GiGL pads this way because Vertex AI refuses the compute pool anywhere else.
     */
    private void addGraphStorePools(CustomJobSpec.Builder jobSpec, UUID jobId, Job job, AssetFolder assets,
            TrainerResource.VertexAiGraphStore graphStore, List<Violation> violations) {
        TrainerResource.VertexAi storage = graphStore.graphStorePool();
        TrainerResource.VertexAi compute = graphStore.computePool();
        TaskConfig.GraphStoreStorage storageProgram = job.getTask().graphStoreStorage();
        if (storageProgram == null || storageProgram.command() == null || storageProgram.command().isBlank()) {
            violations.add(new Violation("taskConfig.trainerConfig.graphStoreStorageConfig.command",
                    "is required for a vertexAiGraphStoreTrainerConfig job: it is what the graph-store pool runs"));
            return;
        }
        int computeProcesses = graphStore.computeClusterLocalWorldSize() > 0 ? graphStore.computeClusterLocalWorldSize()
                : usesGpus(compute) ? compute.gpuLimit() : 1;
        Map<String, String> clusterEnv = new LinkedHashMap<>();
        clusterEnv.put("COMPUTE_CLUSTER_LOCAL_WORLD_SIZE", Integer.toString(computeProcesses));
        clusterEnv.put("GIGL_STORAGE_CLUSTER_MASTER_RANK", "0");
        clusterEnv.put("GIGL_COMPUTE_CLUSTER_MASTER_RANK", Integer.toString(storage.numReplicas()));
        clusterEnv.put("GIGL_STORAGE_CLUSTER_NUM_NODES", Integer.toString(storage.numReplicas()));
        clusterEnv.put("GIGL_COMPUTE_CLUSTER_NUM_NODES", Integer.toString(compute.numReplicas()));

        ContainerSpec storageContainer = container(image(job, false, violations), words(storageProgram.command()),
                args(job.getJobName(), assets, false, storageProgram.storageArgs()), env(job.getJobName(), assets, clusterEnv));
        WorkerPoolSpec.Builder storagePool = pool(storage, storageContainer, violations);
        jobSpec.addWorkerPoolSpecs(storagePool.clone().setReplicaCount(1));
        jobSpec.addWorkerPoolSpecs(storage.numReplicas() > 1
                ? storagePool.clone().setReplicaCount(storage.numReplicas() - 1) : WorkerPoolSpec.newBuilder());
        jobSpec.addWorkerPoolSpecs(WorkerPoolSpec.newBuilder());
        jobSpec.addWorkerPoolSpecs(pool(compute, trainerContainer(job, assets, compute, clusterEnv, violations), violations)
                .setReplicaCount(compute.numReplicas()));
    }

    /** GiGL's trainer command line: the in-memory path's command, or the legacy v1 training process. */
    private ContainerSpec trainerContainer(Job job, AssetFolder assets, TrainerResource.VertexAi pool,
            Map<String, String> extraEnv, List<Violation> violations) {
        TaskConfig task = job.getTask();
        boolean useCuda = usesGpus(pool);
        List<String> command;
        Map<String, String> extraArgs = new LinkedHashMap<>();
        if (task.shouldRunGltBackend()) {
            command = words(task.trainerCommand());
            extraArgs.putAll(task.trainerArgs());
        } else {
            command = List.of("python", "-m", LEGACY_TRAINER_MODULE);
            putIfSet(extraArgs, "cpu_docker_uri", job.getImages().choose(false, properties.cpuImage()));
            putIfSet(extraArgs, "cuda_docker_uri", job.getImages().choose(true, properties.cudaImage()));
        }
        return container(image(job, useCuda, violations), command, args(job.getJobName(), assets, useCuda, extraArgs),
                env(job.getJobName(), assets, extraEnv));
    }

    private WorkerPoolSpec.Builder pool(TrainerResource.VertexAi vertex, ContainerSpec container, List<Violation> violations) {
        MachineSpec.Builder machine = MachineSpec.newBuilder()
                .setMachineType(vertex.machineType())
                .setAcceleratorType(acceleratorType(vertex.gpuType(), violations))
                .setAcceleratorCount(vertex.gpuLimit());
        if (vertex.reservationAffinity() != null) {
            machine.setReservationAffinity(reservationAffinity(vertex.reservationAffinity()));
        }
        return WorkerPoolSpec.newBuilder()
                .setMachineSpec(machine)
                .setContainerSpec(container)
                .setDiskSpec(DiskSpec.newBuilder()
                        .setBootDiskType("pd-ssd")
                        .setBootDiskSizeGb(vertex.bootDiskSizeGb() == null ? DEFAULT_BOOT_DISK_GB : vertex.bootDiskSizeGb()));
    }

    private static ContainerSpec container(String image, List<String> command, List<String> args, Map<String, String> env) {
        ContainerSpec.Builder container = ContainerSpec.newBuilder().setImageUri(image).addAllCommand(command).addAllArgs(args);
        env.forEach((name, value) -> container.addEnv(EnvVar.newBuilder().setName(name).setValue(value)));
        return container.build();
    }

    private static List<String> args(String jobName, AssetFolder assets, boolean useCuda, Map<String, String> extra) {
        List<String> args = new ArrayList<>();
        args.add("--job_name=" + jobName);
        args.add("--task_config_uri=" + assets.taskConfigUri());
        args.add("--resource_config_uri=" + assets.resourceConfigUri());
        if (useCuda) {
            args.add("--use_cuda");
        }
        extra.forEach((key, value) -> args.add("--" + key + "=" + value));
        return args;
    }

    private static Map<String, String> env(String jobName, AssetFolder assets, Map<String, String> extra) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("TF_CPP_MIN_LOG_LEVEL", "3");
        env.put("GIGL_APPLIED_TASK_IDENTIFIER", jobName);
        env.put("GIGL_TASK_CONFIG_URI", assets.taskConfigUri());
        env.put("GIGL_RESOURCE_CONFIG_URI", assets.resourceConfigUri());
        env.put("GIGL_COMPONENT", "Trainer");
        env.putAll(extra);
        return env;
    }

    private Scheduling scheduling(Job job, TrainerResource.VertexAi timing, List<Violation> violations) {
        Scheduling.Builder scheduling = Scheduling.newBuilder()
                .setTimeout(Duration.newBuilder().setSeconds(job.getTimeoutSeconds()));
        String strategy = timing.schedulingStrategy();
        if (strategy != null && !strategy.isBlank()) {
            try {
                scheduling.setStrategy(Scheduling.Strategy.valueOf(strategy));
            } catch (IllegalArgumentException e) {
                violations.add(new Violation("resourceConfig.trainerResourceConfig.schedulingStrategy",
                        "'" + strategy + "' is not a Vertex AI scheduling strategy; one of " + knownNames(Scheduling.Strategy.values())));
            }
        }
        return scheduling.build();
    }

    /** GiGL's normalisation: {@code nvidia-tesla-t4} → {@code NVIDIA_TESLA_T4}. */
    private static AcceleratorType acceleratorType(String gpuType, List<Violation> violations) {
        String normalised = gpuType == null ? NO_ACCELERATOR : gpuType.toUpperCase(Locale.ROOT).replace('-', '_');
        try {
            return AcceleratorType.valueOf(normalised);
        } catch (IllegalArgumentException e) {
            violations.add(new Violation("resourceConfig.trainerResourceConfig.gpuType",
                    "'" + gpuType + "' is not a Vertex AI accelerator type; one of " + knownNames(AcceleratorType.values())));
            return AcceleratorType.ACCELERATOR_TYPE_UNSPECIFIED;
        }
    }

    private static ReservationAffinity reservationAffinity(TrainerResource.ReservationAffinity affinity) {
        ReservationAffinity.Builder builder = ReservationAffinity.newBuilder()
                .setReservationAffinityType(ReservationAffinity.Type.valueOf(affinity.type()));
        if (!affinity.reservationResourceNames().isEmpty()) {
            builder.setKey(RESERVATION_KEY).addAllValues(affinity.reservationResourceNames());
        }
        return builder.build();
    }

    private static Map<String, String> labels(UUID jobId, int attempt, Map<String, String> resourceLabels) {
        Map<String, String> labels = new LinkedHashMap<>();
        resourceLabels.forEach((key, value) -> labels.put(key, value.replace(COMPONENT_PLACEHOLDER, TRAINER_ABBREVIATION)));
        labels.put(JOB_ID_LABEL, jobId.toString());
        labels.put(ATTEMPT_LABEL, Integer.toString(attempt));
        return labels;
    }

    /** GiGL's base output directory is the parent of the TensorBoard log folder; else the job's config folder. */
    private static String baseOutputDirectory(TaskConfig task, AssetFolder assets) {
        String logs = task.trainedModelMetadata().tensorboardLogsUri();
        if (logs != null && logs.startsWith("gs://")) {
            String trimmed = logs.endsWith("/") ? logs.substring(0, logs.length() - 1) : logs;
            return trimmed.substring(0, trimmed.lastIndexOf('/'));
        }
        return assets.configFolder();
    }

    private String image(Job job, boolean useCuda, List<Violation> violations) {
        String image = job.getImages().choose(useCuda, useCuda ? properties.cudaImage() : properties.cpuImage());
        if (image == null || image.isBlank()) {
            violations.add(new Violation(useCuda ? "cudaDockerUri" : "cpuDockerUri",
                    "a " + (useCuda ? "GPU" : "CPU") + " pool needs an image: give one with the job or set trainyard.vertex-ai."
                            + (useCuda ? "cuda" : "cpu") + "-image"));
        }
        return image == null ? "" : image;
    }

    /** GiGL splits the command on single spaces ({@code command_str.strip().split(" ")}), not as a shell would. */
    private static List<String> words(String command) {
        return Arrays.asList(command.strip().split(" "));
    }

    private static boolean usesGpus(TrainerResource.VertexAi pool) {
        return pool.gpuType() != null && !pool.gpuType().equals(NO_ACCELERATOR);
    }

    private static void putIfSet(Map<String, String> args, String key, String value) {
        if (value != null && !value.isBlank()) {
            args.put(key, value);
        }
    }

    private static List<String> knownNames(Enum<?>[] values) {
        return Arrays.stream(values).map(Enum::name).filter(name -> !name.equals("UNRECOGNIZED")).toList();
    }
}

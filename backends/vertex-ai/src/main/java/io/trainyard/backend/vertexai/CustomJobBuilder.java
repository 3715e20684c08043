package io.trainyard.backend.vertexai;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
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
import io.trainyard.launch.LaunchSpec;
import io.trainyard.launch.TrainerImages;
import io.trainyard.validation.InvalidRequestException;
import io.trainyard.validation.Violation;

/**
 * The CustomJob request GiGL's launcher would send for a trainer job. On the in-memory path
 * ({@code launch_single_pool_job}, {@code launch_graph_store_enabled_job}) it is named {@code gigl_train_<job>}
 * and runs the job's command with its trainer args: a single-pool job as a leader pool of one replica and a
 * pool of the other {@code numReplicas-1}; a graph-store job as the compute leader, the compute workers (or an
 * empty pool) and the storage pool, its settings taken from the compute pool. The legacy path (GiGL's v1
 * trainer) runs GiGL's v1 training process as a single-pool job named after the bare job, in the resource
 * config's region, with both images always on its command line. Every container gets GiGL's runtime
 * environment. Trainyard adds two labels, its job id and attempt, because Vertex AI has no idempotency key and
 * the CustomJob is found again by them.
 */
final class CustomJobBuilder {

    static final String JOB_ID_LABEL = "trainyard_job_id";
    static final String ATTEMPT_LABEL = "trainyard_attempt";
    private static final String RESERVATION_KEY = "compute.googleapis.com/reservation-name";
    private static final String NO_ACCELERATOR = "ACCELERATOR_TYPE_UNSPECIFIED";
    private static final int DEFAULT_BOOT_DISK_GB = 100;
    /** GiGL's label values carry this placeholder for the component; the trainer's abbreviation replaces it. */
    private static final String COMPONENT_PLACEHOLDER = "COMPONENT";
    private static final String TRAINER_ABBREVIATION = "tra";
    /** GiGL names the leader's address file by the launch time, to the second; an attempt's is when it was queued. */
    private static final DateTimeFormatter LAUNCH_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    private final VertexAiProperties properties;

    CustomJobBuilder(VertexAiProperties properties) {
        this.properties = properties;
    }

    /** @throws InvalidRequestException for a job Vertex AI would refuse (unknown accelerator or strategy) */
    CreateCustomJobRequest build(Job job, AssetFolder assets) {
        List<Violation> violations = new ArrayList<>();
        ResourceConfig resource = job.getResource();
        LaunchSpec trainer = trainerLaunch(job, assets);
        CustomJobSpec.Builder jobSpec = CustomJobSpec.newBuilder()
                .setServiceAccount(resource.commonComputeConfig().gcpServiceAccountEmail())
                .setEnableWebAccess(true);
        // The pool whose settings are the job's: its only pool, or a graph-store job's compute pool.
        TrainerResource.VertexAi lead = leadPool(job);
        if (resource.trainer() instanceof TrainerResource.VertexAiGraphStore graphStore) {
            addGraphStorePools(jobSpec, trainer, graphStore, violations);
        } else {
            addSinglePool(jobSpec, job, trainer, lead, violations);
        }
        jobSpec.setScheduling(scheduling(job, lead, violations));
        String tensorboard = lead.tensorboardResourceName() != null ? lead.tensorboardResourceName() : properties.tensorboard();
        if (tensorboard != null && !tensorboard.isBlank()) {
            // Vertex then hands the job AIP_TENSORBOARD_LOG_DIR under this directory and uploads what it writes.
            jobSpec.setTensorboard(tensorboard)
                    .setBaseOutputDirectory(GcsDestination.newBuilder().setOutputUriPrefix(baseOutputDirectory(job.getTask(), assets)));
        }
        if (!violations.isEmpty()) {
            throw new InvalidRequestException(violations);
        }
        CustomJob customJob = CustomJob.newBuilder()
                .setDisplayName(displayName(job))
                .setJobSpec(jobSpec)
                .putAllLabels(labels(job.getId(), job.getAttempt(), resource.resourceLabels()))
                .build();
        return CreateCustomJobRequest.newBuilder()
                .setParent(LocationName.of(resource.commonComputeConfig().project(), regionOf(job)).toString())
                .setCustomJob(customJob)
                .build();
    }

    /** The launch of the job's trainer: its configs and assets on GCS, its command split as GiGL splits it. */
    LaunchSpec trainerLaunch(Job job, AssetFolder assets) {
        return new LaunchSpec(job.getJobName(), assets.files(),
                job.trainerProgram(properties.defaultImages(), CustomJobBuilder::words), usesGpus(leadPool(job)));
    }

    /** GiGL names the CustomJob after the trainer component; its legacy (v1) trainer after the bare job. */
    static String displayName(Job job) {
        return job.getTask().shouldRunGltBackend() ? "gigl_train_" + job.getJobName() : job.getJobName();
    }

    /**
     * The region a job's CustomJob runs in: its (compute) pool's override, else the resource config's; GiGL's
     * legacy (v1) trainer always launches in the resource config's region.
     */
    static String regionOf(Job job) {
        String region = job.getResource().commonComputeConfig().region();
        TrainerResource.VertexAi pool = leadPool(job);
        boolean overridden = pool.gcpRegionOverride() != null && !pool.gcpRegionOverride().isBlank();
        return overridden && job.getTask().shouldRunGltBackend() ? pool.gcpRegionOverride() : region;
    }

    /** The pool whose settings are the job's: its only pool, or a graph-store job's compute pool. */
    private static TrainerResource.VertexAi leadPool(Job job) {
        return job.getResource().trainer() instanceof TrainerResource.VertexAiGraphStore graphStore
                ? graphStore.computePool() : (TrainerResource.VertexAi) job.getResource().trainer();
    }

    /** The leader pool of one replica and a pool of the rest; GiGL's launch_job tells them where the leader's address is. */
    private void addSinglePool(CustomJobSpec.Builder jobSpec, Job job, LaunchSpec trainer, TrainerResource.VertexAi pool,
            List<Violation> violations) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("LEADER_WORKER_INTERNAL_IP_FILE_PATH", leaderAddressFile(job));
        env.put("TF_CPP_MIN_LOG_LEVEL", "3");
        env.putAll(runtimeEnvironment(trainer));
        ContainerSpec container = container(trainer.program().images().choose(trainer.useCuda(), null), trainer, env);
        WorkerPoolSpec.Builder workers = pool(pool, container, violations);
        jobSpec.addWorkerPoolSpecs(workers.clone().setReplicaCount(1));
        if (pool.numReplicas() > 1) {
            jobSpec.addWorkerPoolSpecs(workers.clone().setReplicaCount(pool.numReplicas() - 1));
        }
    }

    /**
     * GiGL's graph-store pools: the compute leader, the other compute replicas or an empty pool (Vertex AI
     * refuses a storage pool in second place), then the storage pool, which always runs the CPU image. Both
     * get the compute pool's environment.
     */
    private void addGraphStorePools(CustomJobSpec.Builder jobSpec, LaunchSpec trainer,
            TrainerResource.VertexAiGraphStore graphStore, List<Violation> violations) {
        TrainerImages images = trainer.program().images();
        TrainerResource.VertexAi compute = graphStore.computePool();
        Map<String, String> env = new LinkedHashMap<>();
        env.put("TF_CPP_MIN_LOG_LEVEL", "3");
        env.put("COMPUTE_CLUSTER_LOCAL_WORLD_SIZE", Integer.toString(graphStore.computeProcessesPerReplica()));
        env.putAll(runtimeEnvironment(trainer));

        WorkerPoolSpec.Builder computePool = pool(compute, container(images.choose(trainer.useCuda(), null), trainer, env),
                violations);
        jobSpec.addWorkerPoolSpecs(computePool.clone().setReplicaCount(1));
        jobSpec.addWorkerPoolSpecs(compute.numReplicas() > 1
                ? computePool.clone().setReplicaCount(compute.numReplicas() - 1) : WorkerPoolSpec.newBuilder());
        jobSpec.addWorkerPoolSpecs(pool(graphStore.graphStorePool(), container(images.cpuDockerUri(), trainer.storage(), env), violations)
                .setReplicaCount(graphStore.graphStorePool().numReplicas()));
    }

    /**
     * GiGL's runtime context for every container (get_gigl_runtime_env_vars): the launch contract's, and the
     * BigQuery quota project when the launcher has one.
     */
    private Map<String, String> runtimeEnvironment(LaunchSpec trainer) {
        Map<String, String> env = trainer.giglEnvironment();
        if (properties.bigqueryQuotaProject() != null) {
            env.put("GIGL_BIGQUERY_QUOTA_PROJECT", properties.bigqueryQuotaProject());
        }
        return env;
    }

    /** Where GiGL's leader worker writes its internal address: under the regional temp bucket, per launch. */
    private static String leaderAddressFile(Job job) {
        return AssetFolder.stripTrailingSlash(job.getResource().commonComputeConfig().tempRegionalAssetsBucket()) + "/"
                + displayName(job) + "/" + LAUNCH_TIME.format(job.getQueuedAt()) + "/leader_worker_internal_ip.txt";
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

    /** A container running the launch's program with its flags and {@code env}. */
    private static ContainerSpec container(String image, LaunchSpec launch, Map<String, String> env) {
        ContainerSpec.Builder container = ContainerSpec.newBuilder().setImageUri(image)
                .addAllCommand(launch.program().command()).addAllArgs(launch.args());
        env.forEach((name, value) -> container.addEnv(EnvVar.newBuilder().setName(name).setValue(value)));
        return container.build();
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

    /** GiGL splits the command on single spaces ({@code command_str.strip().split(" ")}), not as a shell would. */
    private static List<String> words(String command) {
        return Arrays.asList(command.strip().split(" "));
    }

    private static boolean usesGpus(TrainerResource.VertexAi pool) {
        return pool.gpuType() != null && !pool.gpuType().equals(NO_ACCELERATOR);
    }

    private static List<String> knownNames(Enum<?>[] values) {
        return Arrays.stream(values).map(Enum::name).filter(name -> !name.equals("UNRECOGNIZED")).toList();
    }
}

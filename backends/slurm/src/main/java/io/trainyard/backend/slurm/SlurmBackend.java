package io.trainyard.backend.slurm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import io.trainyard.agent.trainer.TrainerOutputs;
import io.trainyard.agent.trainer.WorkFolder;
import io.trainyard.backend.Backend;
import io.trainyard.backend.BackendDescription;
import io.trainyard.backend.FollowedRuns;
import io.trainyard.backend.HostProcesses;
import io.trainyard.backend.LaunchPlan;
import io.trainyard.backend.PartitionReading;
import io.trainyard.backend.PlacementDecision;
import io.trainyard.backend.PlacementPass;
import io.trainyard.gigl.ResourceConfig;
import io.trainyard.job.Job;
import io.trainyard.job.JobState;
import io.trainyard.launch.CommandWords;
import io.trainyard.launch.LaunchSpec;
import io.trainyard.launch.TrainerImages;
import io.trainyard.validation.InvalidRequestException;
import org.springframework.context.SmartLifecycle;

/**
 * Runs {@code localTrainerConfig} jobs that name it ({@code backend: slurm}) on a Slurm cluster, each as one batch
 * job ({@link BatchScript}). Slurm queues and places; a job is handed to it at once, and its pending reason shows in
 * the job's history. Each running job is followed by its own {@link SlurmRun} on a virtual thread, and all of them
 * share one reading of the queue ({@link SlurmQueue}).
 */
public class SlurmBackend implements Backend, SmartLifecycle {

    public static final String NAME = "slurm";
    /** The task config's field naming the folder the trainer writes TensorBoard event files to. */
    private static final String TENSORBOARD_LOGS = "tensorboardLogsUri";

    private final SlurmProperties properties;
    /** This replica: it follows the batch jobs it submits, and re-attaches to them after a restart. */
    private final String nodeId;
    private final SlurmRun.Services services;
    private final SlurmPartitions partitions;
    private final FollowedRuns<SlurmRun> runs = new FollowedRuns<>(NAME);
    private Thread queueReader;

    SlurmBackend(SlurmProperties properties, String nodeId, SlurmRun.Services services, SlurmPartitions partitions) {
        this.properties = properties;
        this.nodeId = nodeId;
        this.services = services;
        this.partitions = partitions;
    }

    @Override
    public BackendDescription description() {
        return SlurmModule.DESCRIPTION;
    }

    /**
     * Besides what any host-process backend checks: every node runs as many workers (the submission's {@code nodes}
     * divide them evenly, or they fill whole nodes of {@code tasks-per-node}); and the job's partition has that many
     * nodes able to hold a node's share.
     */
    @Override
    public void validate(Job job) {
        HostProcesses.validate(job, NAME);
        int workers = job.getSlots();
        int perNode = properties.tasksPerNode();
        if (job.getNodes() > 0 && workers % job.getNodes() != 0) {
            throw new InvalidRequestException("nodes", workers + " workers do not divide evenly over "
                    + counted(job.getNodes(), "node"));
        }
        if (job.getNodes() == 0 && workers > perNode && workers % perNode != 0) {
            throw new InvalidRequestException(shapeField(job), workers + " workers do not fill whole Slurm nodes of " + perNode
                    + " (trainyard.slurm.tasks-per-node): ask for a multiple of " + perNode + ", or for at most " + perNode);
        }
        BatchScript.Shape shape = shape(job);
        String partition = properties.allocationOf(job.getProject()).partition();
        partitions.fitting(partition, shape).ifPresent(fitting -> {
            if (fitting < shape.nodes()) {
                throw new InvalidRequestException(shapeField(job), workers + " workers need " + counted(shape.nodes(), "node")
                        + " with " + counted(shape.tasksPerNode(), "CPU")
                        + (shape.gpusPerNode() > 0 ? " and " + counted(shape.gpusPerNode(), "GPU") : "")
                        + " each; Slurm partition '" + (partition == null ? "(the cluster's default)" : partition) + "' has "
                        + counted(fitting, "such node"));
            }
        });
    }

    private static String counted(int count, String noun) {
        return count + " " + noun + (count == 1 ? "" : "s");
    }

    /** The field that asked for the job's shape: the submission's {@code nodes} or {@code gpus}, or the resource config's. */
    private static String shapeField(Job job) {
        if (job.getNodes() > 0) {
            return "nodes";
        }
        return job.getSlots() == job.getResource().trainer().workers()
                ? "resourceConfig.trainerResourceConfig.localTrainerConfig.numWorkers" : "gpus";
    }

    /** The exact batch script and options the job would be submitted with, as its first attempt. */
    @Override
    public LaunchPlan plan(Job job) {
        validate(job);
        WorkFolder folder = folder(job.getId());
        BatchScript.Shape shape = shape(job);
        LaunchSpec spec = launchSpec(job, folder);
        SlurmPlacement placement = placement(job);
        Map<String, Object> shown = new LinkedHashMap<>();
        shown.put("partition", placement.partition());
        shown.put("nodes", shape.nodes());
        shown.put("tasksPerNode", shape.tasksPerNode());
        shown.put("gpusPerNode", shape.gpusPerNode());
        List<LaunchPlan.Worker> workers = spec.workers(shape.tasks(), "the allocation's first host", "picked per job").stream()
                .map(worker -> new LaunchPlan.Worker(worker.rank(), worker.argv(), onItsNode(worker.environment(), worker.rank(), shape)))
                .toList();
        return new LaunchPlan(NAME, shown, folder.root().toString(), workers, null, script(job, 1, folder, spec));
    }

    /** A worker's environment with its rank on its node, as Slurm numbers the tasks of a node ({@code SLURM_LOCALID}). */
    private static Map<String, String> onItsNode(Map<String, String> environment, int rank, BatchScript.Shape shape) {
        Map<String, String> local = new LinkedHashMap<>(environment);
        local.put("LOCAL_RANK", Integer.toString(rank % shape.tasksPerNode()));
        local.put("LOCAL_WORLD_SIZE", Integer.toString(shape.tasksPerNode()));
        return local;
    }

    /** Relative to the work folder, which is the batch job's working directory on every node. */
    @Override
    public String trainerAssetFolder(String jobName, ResourceConfig resource) {
        return WorkFolder.TRAINER_ASSETS;
    }

    @Override
    public Map<String, String> outputUris(Job job) {
        return TrainerOutputs.uris(job.getTask().trainedModelMetadata().byField(), folder(job.getId()));
    }

    /** Slurm queues the jobs handed to it: while one pends, its reason, as the job's waitingReason. */
    @Override
    public Optional<String> waitingReason(UUID jobId) {
        return runs.run(jobId).flatMap(SlurmRun::pendingReason).map(reason -> "Slurm: " + reason);
    }

    @Override
    public Optional<PartitionReading> partitions() {
        return partitions.reading();
    }

    /** The job's TensorBoard, which the server runs on the scalars it read from the job's event files. */
    @Override
    public Map<String, String> links(Job job) {
        return Map.of("tensorboard", "/jobs/" + job.getId() + "/tensorboard/");
    }

    /** Slurm queues and places jobs itself: each is handed over at once. */
    @Override
    public PlacementPass beginPass() {
        return job -> new PlacementDecision.Placed(nodeId, placement(job).tagged());
    }

    @Override
    public void launch(Job job) {
        follow(job, false, false);
    }

    @Override
    public void requestCancel(UUID jobId) {
        runs.run(jobId).ifPresent(SlurmRun::requestCancel);
    }

    /** After a restart every active job is followed again; its batch job is found by its name. */
    @Override
    public void recover(List<Job> activeJobsOfThisNode) {
        for (Job job : activeJobsOfThisNode) {
            follow(job, true, job.getState() == JobState.CANCELLING);
        }
    }

    private void follow(Job job, boolean recovered, boolean cancelling) {
        UUID id = job.getId();
        int attempt = job.getAttempt();
        WorkFolder folder = folder(id);
        LaunchSpec spec = launchSpec(job, folder);
        String script = script(job, attempt, folder, spec);
        Runnable prepare = () -> prepare(job, attempt, folder, spec, script);
        String tensorboard = job.getTask().trainedModelMetadata().byField().get(TENSORBOARD_LOGS);
        SlurmRun run = new SlurmRun(services, new SlurmRun.Attempt(id, attempt, recovered, job.getState() != JobState.STARTING, folder,
                tensorboard == null ? null : TrainerOutputs.resolve(tensorboard, folder), shape(job).tasks(), placement(job), script, prepare,
                job.getStartedAt() == null ? Instant.now() : job.getStartedAt(), Duration.ofSeconds(job.getTimeoutSeconds())));
        // At shutdown the batch job goes on, and the next start follows it again.
        runs.start(id, run, () -> run.follow(cancelling), run::abandon);
    }

    /** Writes the configs the trainer reads and the script, and clears old outputs (GiGL's semantics on a retry). */
    private static void prepare(Job job, int attempt, WorkFolder folder, LaunchSpec spec, String script) {
        try {
            Files.createDirectories(folder.attempt(attempt));
            Files.writeString(folder.taskConfig(), job.getTaskConfig());
            Files.writeString(folder.resourceConfig(), job.getResourceConfig());
            Files.writeString(folder.attempt(attempt).resolve("batch.sh"), script);
            TrainerOutputs.clear(TrainerOutputs.resolveAll(spec.outputsToClear(), folder));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the work folder " + folder.root() + " on the shared filesystem", e);
        }
    }

    private String script(Job job, int attempt, WorkFolder folder, LaunchSpec spec) {
        long minutes = Math.max(1, (job.getTimeoutSeconds() + 59) / 60);
        return BatchScript.render(job.getId(), attempt, shape(job), properties.allocationOf(job.getProject()), minutes, folder, spec,
                properties.trainerPath());
    }

    private WorkFolder folder(UUID jobId) {
        return WorkFolder.of(properties.workRoot(), jobId);
    }

    private BatchScript.Shape shape(Job job) {
        return job.getNodes() > 0 ? BatchScript.Shape.over(job.getSlots(), job.getNodes(), job.isRequireGpus())
                : BatchScript.Shape.of(job.getSlots(), properties.tasksPerNode(), job.isRequireGpus());
    }

    private SlurmPlacement placement(Job job) {
        BatchScript.Shape shape = shape(job);
        return new SlurmPlacement(properties.allocationOf(job.getProject()).partition(), shape.nodes(), shape.tasksPerNode(),
                shape.gpusPerNode());
    }

    private static LaunchSpec launchSpec(Job job, WorkFolder folder) {
        return new LaunchSpec(job.getJobName(), folder.files(), job.trainerProgram(TrainerImages.SERVER_DEFAULTS, CommandWords::split),
                job.isRequireGpus());
    }

    @Override
    public void start() {
        queueReader = Thread.ofPlatform().daemon().name("slurm-queue").start(services.queue());
    }

    /** On shutdown the batch jobs keep running; a restarted server follows them again. */
    @Override
    public void stop() {
        runs.interruptAll();
        queueReader.interrupt();
        queueReader = null;
    }

    @Override
    public boolean isRunning() {
        return queueReader != null;
    }
}

package io.trainyard.job;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

import io.trainyard.gigl.ResourceConfig;
import io.trainyard.gigl.TaskConfig;
import io.trainyard.gigl.TrainerResource;
import io.trainyard.launch.GraphStoreProcesses;
import io.trainyard.launch.TrainerImages;
import io.trainyard.launch.TrainerProgram;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import org.hibernate.annotations.ColumnTransformer;
import org.hibernate.annotations.DynamicUpdate;
import org.hibernate.annotations.Mutability;
import org.hibernate.type.descriptor.java.Immutability;
import org.springframework.data.domain.Persistable;

/**
 * A submitted trainer job: its frozen configs (the YAML text as submitted, handed to the trainer, and the
 * server's typed reading of it, made once at submission), where it is in its lifecycle and where its current
 * attempt runs. State changes go through {@link #moveTo}, which enforces the state machine and returns the
 * event to append in the same transaction.
 *
 * <p>The values of its JSON columns are immutable and replaced, never changed in place ({@link Mutability}): else
 * Hibernate deep-copies each by writing and reading its JSON whenever it stores or loads a job, about a tenth of the
 * server's CPU a submission. An update names only the columns that changed ({@link DynamicUpdate}): a state change
 * would otherwise send the frozen configs again (two YAML texts and their JSON readings), which PostgreSQL parses,
 * compresses and writes anew, for each job the dispatcher claims, fails or starts.
 */
@Entity
@Table(name = "jobs")
@DynamicUpdate
public class Job implements Persistable<UUID> {

    @Id
    private UUID id;

    @Column(name = "job_name", nullable = false)
    private String jobName;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    private JobState state;

    @Column(nullable = false)
    private String backend;

    /** The project the job belongs to: who may see and change it follows from the callers' roles there. */
    @Column(nullable = false)
    private String project;

    /** The user who submitted it; null for jobs stored before users existed. */
    @Column(name = "submitted_by")
    private String submittedBy;

    private int priority;

    @Mutability(Immutability.class)
    @Convert(converter = StringMapConverter.class)
    @ColumnTransformer(write = "?::jsonb")
    @Column(columnDefinition = "jsonb")
    private Map<String, String> labels;

    /**
     * Where the outputs land, by trainedModelMetadata field, as the backend resolved them at submission, and
     * as the agent running it resolved them on its host once it started.
     */
    @Mutability(Immutability.class)
    @Convert(converter = StringMapConverter.class)
    @ColumnTransformer(write = "?::jsonb")
    @Column(columnDefinition = "jsonb")
    private Map<String, String> outputs;

    @Column(name = "task_config", nullable = false)
    private String taskConfig;

    @Column(name = "resource_config", nullable = false)
    private String resourceConfig;

    @Mutability(Immutability.class)
    @Convert(converter = TaskConfigConverter.class)
    @ColumnTransformer(write = "?::jsonb")
    @Column(columnDefinition = "jsonb", nullable = false)
    private TaskConfig task;

    @Mutability(Immutability.class)
    @Convert(converter = ResourceConfigConverter.class)
    @ColumnTransformer(write = "?::jsonb")
    @Column(columnDefinition = "jsonb", nullable = false)
    private ResourceConfig resource;

    @Column(name = "task_config_source")
    private String taskConfigSource;

    @Column(name = "resource_config_source")
    private String resourceConfigSource;

    @Column(name = "require_gpus")
    private boolean requireGpus;

    private int slots;

    /** The hosts the submission asked its workers to be spread over; 0: the backend decides. */
    private int nodes;

    @Column(name = "timeout_seconds")
    private long timeoutSeconds;

    private int attempt;

    @Column(name = "max_attempts")
    private int maxAttempts;

    @Column(name = "retry_backoff_seconds")
    private int retryBackoffSeconds;

    @Column(name = "cpu_docker_uri")
    private String cpuDockerUri;

    @Column(name = "cuda_docker_uri")
    private String cudaDockerUri;

    /** A queued retry waits until then (backoff); null: as soon as it fits. */
    @Column(name = "not_before")
    private Instant notBefore;

    @Enumerated(EnumType.STRING)
    @Column(name = "failure_cause")
    private FailureCause failureCause;

    @Column(name = "failure_message")
    private String failureMessage;

    @Column(name = "exit_code")
    private Integer exitCode;

    @Column(name = "idempotency_key")
    private String idempotencyKey;

    @Column(name = "request_hash")
    private String requestHash;

    @Column(name = "node_id")
    private String nodeId;

    @Mutability(Immutability.class)
    @Convert(converter = PlacementConverter.class)
    @ColumnTransformer(write = "?::jsonb")
    @Column(columnDefinition = "jsonb")
    private Placement placement;

    @ColumnTransformer(write = "?::jsonb")
    @Column(name = "run_state", columnDefinition = "jsonb")
    private String runState;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "queued_at", nullable = false)
    private Instant queuedAt;

    @Column(name = "started_at")
    private Instant startedAt;

    @Column(name = "finished_at")
    private Instant finishedAt;

    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    /** Null until first stored: see {@link #isNew()}. */
    @Version
    private Long version;

    protected Job() {
    }

    /**
     * A new job in {@link JobState#QUEUED}; the caller appends {@link #queuedEvent()}.
     *
     * @param idempotencyKey the submitter's key (unique per submitter), or null
     * @param requestHash a digest of the submission, telling an idempotent repeat from a different request
     */
    public Job(UUID id, JobSpec spec, String submittedBy, String idempotencyKey, String requestHash, Instant submittedAt) {
        // PostgreSQL keeps microseconds; list cursors compare against the stored value.
        Instant now = submittedAt.truncatedTo(ChronoUnit.MICROS);
        this.id = id;
        this.jobName = spec.jobName();
        this.state = JobState.QUEUED;
        this.backend = spec.backend();
        this.project = spec.project();
        this.submittedBy = submittedBy;
        this.priority = spec.priority();
        this.labels = spec.labels();
        this.outputs = Map.of();
        this.taskConfig = spec.taskConfigYaml();
        this.resourceConfig = spec.resourceConfigYaml();
        this.task = spec.task();
        this.resource = spec.resource();
        this.taskConfigSource = spec.taskConfigSource();
        this.resourceConfigSource = spec.resourceConfigSource();
        this.requireGpus = spec.requireGpus();
        this.slots = spec.slots();
        this.nodes = spec.nodes();
        this.timeoutSeconds = spec.timeoutSeconds();
        this.attempt = 1;
        this.maxAttempts = spec.maxAttempts();
        this.retryBackoffSeconds = spec.retryBackoffSeconds();
        this.cpuDockerUri = spec.images().cpuDockerUri();
        this.cudaDockerUri = spec.images().cudaDockerUri();
        this.idempotencyKey = idempotencyKey;
        this.requestHash = requestHash;
        this.createdAt = now;
        this.queuedAt = now;
        this.updatedAt = now;
    }

    JobEvent queuedEvent() {
        return new JobEvent(id, attempt, null, JobState.QUEUED, null, "submitted", createdAt);
    }

    /**
     * Moves to {@code next}, recording timestamps and, for a failure, its cause.
     *
     * @throws IllegalStateException if the state machine forbids the move
     */
    JobEvent moveTo(JobState next, FailureCause cause, String message, Instant now) {
        if (!state.canMoveTo(next)) {
            throw new IllegalStateException("job " + id + " cannot move from " + state + " to " + next);
        }
        JobState previous = state;
        state = next;
        updatedAt = now;
        if (next == JobState.RUNNING) {
            startedAt = now;
        }
        if (next.isTerminal()) {
            finishedAt = now;
            failureCause = next == JobState.FAILED ? cause : null;
            failureMessage = next == JobState.FAILED ? message : null;
        }
        return new JobEvent(id, attempt, previous, next, cause, message, now);
    }

    /** An event that changes nothing: something the control plane saw happen to the running attempt. */
    JobEvent note(String message, Instant now) {
        return new JobEvent(id, attempt, state, state, null, message, now);
    }

    /** Starts a new attempt of an ended job: same id, attempt + 1, back in the queue. */
    JobEvent requeueForRetry(Instant now) {
        return requeueForRetry(now, null, "retry requested: attempt " + (attempt + 1));
    }

    /** Whether a failure with this cause starts another attempt under the job's retry policy. */
    boolean retriesAfter(FailureCause cause) {
        return (cause == FailureCause.INFRASTRUCTURE || cause == FailureCause.CONTROL_PLANE) && attempt < maxAttempts;
    }

    /** The backoff before the next automatic attempt: doubled for each attempt already made. */
    Duration retryBackoff() {
        return Duration.ofSeconds((long) retryBackoffSeconds << Math.min(attempt - 1, 20));
    }

    /** Queues the next attempt to start no earlier than {@code notBefore} (null: at once). */
    JobEvent requeueForRetry(Instant now, Instant notBefore, String message) {
        if (!state.isTerminal()) {
            throw new IllegalStateException("job " + id + " is " + state + "; only an ended job can be retried");
        }
        attempt++;
        JobEvent event = moveTo(JobState.QUEUED, null, message, now);
        queuedAt = now;
        this.notBefore = notBefore;
        startedAt = null;
        finishedAt = null;
        failureCause = null;
        failureMessage = null;
        exitCode = null;
        nodeId = null;
        placement = null;
        runState = null;
        return event;
    }

    /** When the running attempt's processes started, where its host says so rather than when the report came. */
    void recordStartedAt(Instant processesStartedAt) {
        startedAt = processesStartedAt;
    }

    void assignTo(String nodeId, Placement placement) {
        this.nodeId = nodeId;
        this.placement = placement;
    }

    /** Where the outputs land: as the backend resolves them at submission, and on the host that runs it. */
    public void recordOutputs(Map<String, String> outputs) {
        this.outputs = outputs;
    }

    /** Where the job runs, as its backend learned once it started (e.g. the hosts Slurm picked); the node stays. */
    void recordPlacement(Placement placement) {
        this.placement = placement;
    }

    void recordRunState(String runStateJson) {
        this.runState = runStateJson;
    }

    void recordExitCode(Integer exitCode) {
        this.exitCode = exitCode;
    }

    @Override
    public UUID getId() {
        return id;
    }

    /**
     * Tells Spring Data to insert a job never stored, without first looking its id up. Asked here rather than
     * found by reflection on the version, which throws and catches an exception on every save.
     */
    @Override
    public boolean isNew() {
        return version == null;
    }

    public String getJobName() {
        return jobName;
    }

    public JobState getState() {
        return state;
    }

    public String getBackend() {
        return backend;
    }

    public String getProject() {
        return project;
    }

    public String getSubmittedBy() {
        return submittedBy;
    }

    public int getPriority() {
        return priority;
    }

    public Map<String, String> getLabels() {
        return labels;
    }

    public Map<String, String> getOutputs() {
        return outputs;
    }

    public String getTaskConfig() {
        return taskConfig;
    }

    public String getResourceConfig() {
        return resourceConfig;
    }

    public TaskConfig getTask() {
        return task;
    }

    public ResourceConfig getResource() {
        return resource;
    }

    /** The job's own trainer images; a null one falls back to the server's default. */
    public TrainerImages getImages() {
        return new TrainerImages(cpuDockerUri, cudaDockerUri);
    }

    /**
     * What this job's trainer runs, as its task config says: {@code trainerConfig.command} on the in-memory path,
     * GiGL's v1 training process on the legacy one; images the job names none of are {@code serverImages}. A
     * graph-store job's program names its storage processes too.
     *
     * @param words how the backend splits {@code trainerConfig.command} into words (as its GiGL launcher would)
     */
    public TrainerProgram trainerProgram(TrainerImages serverImages, Function<String, List<String>> words) {
        boolean legacy = !task.shouldRunGltBackend();
        TaskConfig.GraphStoreStorage storage = task.graphStoreStorage();
        GraphStoreProcesses graphStore = storage != null && resource.trainer() instanceof TrainerResource.VertexAiGraphStore pools
                ? new GraphStoreProcesses(words.apply(storage.command()), storage.storageArgs(), pools.graphStorePool().numReplicas(),
                        pools.computeProcessesPerReplica())
                : null;
        return new TrainerProgram(legacy ? TrainerProgram.LEGACY_TRAINER : words.apply(task.trainerCommand()), legacy,
                task.trainerArgs(), getImages().orElse(serverImages), task.trainedModelMetadata().byField(),
                !task.shouldSkipTraining(), graphStore);
    }

    public String getTaskConfigSource() {
        return taskConfigSource;
    }

    public String getResourceConfigSource() {
        return resourceConfigSource;
    }

    public boolean isRequireGpus() {
        return requireGpus;
    }

    public int getSlots() {
        return slots;
    }

    public int getNodes() {
        return nodes;
    }

    public long getTimeoutSeconds() {
        return timeoutSeconds;
    }

    public int getAttempt() {
        return attempt;
    }

    public int getMaxAttempts() {
        return maxAttempts;
    }

    public int getRetryBackoffSeconds() {
        return retryBackoffSeconds;
    }

    public Instant getNotBefore() {
        return notBefore;
    }

    public FailureCause getFailureCause() {
        return failureCause;
    }

    public String getFailureMessage() {
        return failureMessage;
    }

    public Integer getExitCode() {
        return exitCode;
    }

    public String getIdempotencyKey() {
        return idempotencyKey;
    }

    public String getRequestHash() {
        return requestHash;
    }

    public String getNodeId() {
        return nodeId;
    }

    public Placement getPlacement() {
        return placement;
    }

    public String getRunState() {
        return runState;
    }

    public Instant getCreatedAt() {
        return createdAt;
    }

    public Instant getQueuedAt() {
        return queuedAt;
    }

    public Instant getStartedAt() {
        return startedAt;
    }

    public Instant getFinishedAt() {
        return finishedAt;
    }

    public Instant getUpdatedAt() {
        return updatedAt;
    }
}

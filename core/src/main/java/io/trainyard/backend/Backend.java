package io.trainyard.backend;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import io.trainyard.gigl.ResourceConfig;
import io.trainyard.gigl.TrainerResource;
import io.trainyard.job.Job;

/**
 * Something that runs trainer jobs: the local pool, Vertex AI, each a module of its own under {@code backends/}
 * whose Spring components the server picks up. The dispatcher claims queued jobs from PostgreSQL and hands each
 * to the backend the submission named, or else the first that runs its resource config; the backend reports
 * back through {@link io.trainyard.job.JobTransitions} and the log store. Every method gets the job with its
 * configs already read (at submission): a backend never parses YAML. The launch contract
 * ({@link io.trainyard.launch.LaunchSpec}) is what a backend renders into processes or cloud jobs.
 */
public interface Backend {

    /** What this backend is and runs. */
    BackendDescription description();

    /** The name stored on jobs, e.g. {@code local}. */
    default String name() {
        return description().name();
    }

    /** Whether this backend runs jobs with this trainer resource kind, made for it or standing in for another. */
    default boolean runs(TrainerResource resource) {
        return description().runs().contains(resource.kind());
    }

    /** Whether this backend is made for jobs with this trainer resource kind (not only standing in for another). */
    default boolean madeFor(TrainerResource resource) {
        return description().resourceConfigs().contains(resource.kind());
    }

    /**
     * Checks, at submission, what only this backend can check; the job is not stored yet.
     *
     * @throws io.trainyard.validation.InvalidRequestException for a job this backend cannot run as given
     */
    void validate(Job job);

    /**
     * Describes the launch of a job that is not stored (a dry run) without doing anything.
     *
     * @throws io.trainyard.validation.InvalidRequestException for a job this backend cannot run as given
     */
    LaunchPlan plan(Job job);

    /**
     * GiGL's trainer asset folder of a job with this name and resource config: a template task config's unset
     * {@code trainedModelMetadata} URIs are placed under it in GiGL's layout, and it is deleted before a run
     * that trains.
     */
    String trainerAssetFolder(String jobName, ResourceConfig resource);

    /** Where the job's outputs end up, by {@code trainedModelMetadata} field name, as absolute URIs. */
    Map<String, String> outputUris(Job job);

    /**
     * Starts deciding where jobs go, in one dispatch transaction that holds their rows locked. Nothing is held
     * outside the database: a placement counts once the claim that records it commits, so a failed claim has
     * nothing to give back.
     */
    PlacementPass beginPass();

    /** Starts the job's run asynchronously; the job is STARTING and assigned to its node. */
    void launch(Job job);

    /** The job is CANCELLING: stop its run if it runs here. */
    void requestCancel(UUID jobId);

    /** After a restart: re-attach to, or settle, the runs this node had when it stopped. */
    void recover(List<Job> activeJobsOfThisNode);

    /**
     * Why a job handed to this backend (STARTING) is not running yet, for a backend that queues jobs itself (Slurm's
     * pending reason); empty when nothing holds it up or this server does not follow its run.
     */
    default Optional<String> waitingReason(UUID jobId) {
        return Optional.empty();
    }

    /**
     * The partitions of the cluster it submits to, for a backend that declares {@link BackendDescription#partitions};
     * empty while the cluster has never answered.
     */
    default Optional<PartitionReading> partitions() {
        return Optional.empty();
    }

    /** Where a person can look at the job's run outside Trainyard (a console, TensorBoard), by kind; none by default. */
    default Map<String, String> links(Job job) {
        return Map.of();
    }
}

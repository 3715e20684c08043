package io.trainyard.dispatch;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.trainyard.gigl.TaskConfig;
import io.trainyard.gigl.TrainerResource;
import io.trainyard.job.Job;
import io.trainyard.job.JobSpec;

/**
 * Something that runs trainer jobs: the local pool, Vertex AI. The dispatcher claims queued jobs from
 * PostgreSQL and hands each to the backend its resource config names; the backend reports back through
 * {@link io.trainyard.job.JobTransitions} and the log store.
 */
public interface Backend {

    /** The name stored on jobs, e.g. {@code local}. */
    String name();

    /** Whether this backend runs jobs with this trainer resource kind. */
    boolean runs(TrainerResource resource);

    /**
     * Checks what only this backend can check and describes the launch without doing anything.
     *
     * @throws io.trainyard.gigl.InvalidConfigException for a job this backend cannot run as given
     */
    LaunchPlan plan(UUID jobId, JobSpec spec);

    /**
     * Checks what only this backend can check, at submission; by default by planning, a backend whose plan
     * costs more (it reads the pool) checks less expensively.
     *
     * @throws io.trainyard.gigl.InvalidConfigException for a job this backend cannot run as given
     */
    default void validate(UUID jobId, JobSpec spec) {
        plan(jobId, spec);
    }

    /** Where the job's outputs end up, by {@code trainedModelMetadata} field name, as absolute URIs. */
    Map<String, String> outputUris(UUID jobId, TaskConfig task);

    /**
     * Starts deciding where jobs go, in one dispatch transaction that holds their rows locked: each decision
     * of the pass sees the capacity taken by those before it. Nothing is held outside the database: a
     * placement counts once the claim that records it commits, so a failed claim has nothing to give back.
     */
    ReservationPass beginPass();

    /** Starts the job's run asynchronously; the job is STARTING and assigned to this node. */
    void launch(Job job, JobSpec spec);

    /** The job is CANCELLING: stop its run if it runs here. */
    void requestCancel(UUID jobId);

    /** After a restart: re-attach to, or settle, the runs this node had when it stopped. */
    void recover(List<Job> activeJobsOfThisNode);

    /** Where a person can look at the job's run outside Trainyard (a console, TensorBoard), by kind; none by default. */
    default Map<String, String> links(Job job) {
        return Map.of();
    }
}

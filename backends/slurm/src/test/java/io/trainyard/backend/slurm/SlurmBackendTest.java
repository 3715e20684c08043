package io.trainyard.backend.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.trainyard.backend.LaunchPlan;
import io.trainyard.backend.Partition;
import io.trainyard.backend.PartitionReading;
import io.trainyard.gigl.ResourceConfigReader;
import io.trainyard.gigl.TaskConfigReader;
import io.trainyard.job.Job;
import io.trainyard.job.JobSpec;
import io.trainyard.launch.TrainerImages;
import io.trainyard.testing.JobBodies;
import io.trainyard.validation.InvalidRequestException;
import io.trainyard.validation.Violation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SlurmBackendTest {

    @TempDir
    Path workRoot;

    /** Partition "gpu": two nodes of 4 CPUs and 2 GPUs. */
    private static final SlurmPartitions TWO_NODES = new SlurmPartitions(() -> SlurmCommands.parseNodes("""
            node1|gpu|4|2/2/0/4|gpu:2|gpu:1|mixed
            node2|gpu|4|0/4/0/4|gpu:2|gpu:0|idle
            node3|cpu*|64|0/0/64/64|(null)|(null)|down*
            """));

    private SlurmBackend backend(int tasksPerNode) {
        return backend(tasksPerNode, TWO_NODES);
    }

    private SlurmBackend backend(int tasksPerNode, SlurmPartitions partitions) {
        SlurmProperties properties = new SlurmProperties(true, null, null, workRoot, "gpu", null, null, Map.of(), tasksPerNode, List.of(),
                Duration.ofSeconds(2), Duration.ofSeconds(30));
        return new SlurmBackend(properties, "node", null, partitions);
    }

    private static Job job(int workers) {
        return job(workers, 0);
    }

    /** A job of {@code workers} workers, spread over {@code nodes} hosts (0: as the backend's settings say). */
    private static Job job(int workers, int nodes) {
        String task = JobBodies.taskConfig("print('hello')", "outputs/model.pt");
        String resource = JobBodies.RESOURCE_CONFIG.formatted(workers);
        JobSpec spec = new JobSpec("on_slurm", SlurmBackend.NAME, "default", TaskConfigReader.read("taskConfig", task),
                ResourceConfigReader.read("resourceConfig", resource, (field, uri) -> {
                    throw new AssertionError(uri);
                }), task, resource, null, null, Map.of(), 0, false, 3600, workers, nodes, 1, 0,
                TrainerImages.SERVER_DEFAULTS);
        return new Job(UUID.randomUUID(), spec, "tester", null, null, Instant.now());
    }

    @Test
    void workersThatDoNotFillWholeNodesAreRefusedOnTheirField() {
        assertThatThrownBy(() -> backend(2).validate(job(3)))
                .isInstanceOfSatisfying(InvalidRequestException.class, refused -> assertThat(refused.violations())
                        .extracting(Violation::field).containsExactly("resourceConfig.trainerResourceConfig.localTrainerConfig.numWorkers"));
        backend(2).validate(job(4));
        backend(4).validate(job(3));
    }

    @Test
    void aJobNeedingMoreNodesThanItsPartitionHasIsRefusedOnItsField() {
        assertThatThrownBy(() -> backend(1).validate(job(3)))
                .isInstanceOfSatisfying(InvalidRequestException.class, refused -> assertThat(refused.violations()).singleElement()
                        .satisfies(violation -> {
                            assertThat(violation.field()).isEqualTo("resourceConfig.trainerResourceConfig.localTrainerConfig.numWorkers");
                            assertThat(violation.message())
                                    .isEqualTo("3 workers need 3 nodes with 1 CPU each; Slurm partition 'gpu' has 2 such nodes");
                        }));
        assertThatThrownBy(() -> backend(8).validate(job(8))).hasMessageContaining("8 CPUs each; Slurm partition 'gpu' has 0 such nodes");
        backend(1).validate(job(2));
        backend(4).validate(job(8));
    }

    @Test
    void thePartitionsAreReadWithWhatOfEachNodeIsInUse() {
        PartitionReading reading = backend(1).partitions().orElseThrow();

        assertThat(reading.partitions()).containsExactly(
                new Partition("gpu", false, List.of(new Partition.Node("node1", "mixed", 4, 2, 2, 1),
                        new Partition.Node("node2", "idle", 4, 0, 2, 0))),
                new Partition("cpu", true, List.of(new Partition.Node("node3", "down*", 64, 0, 0, 0))));
    }

    @Test
    void aClusterThatCannotBeReadChecksNothingAndSbatchDecides() {
        SlurmPartitions unreadable = new SlurmPartitions(() -> {
            throw new SlurmCommands.SlurmException("sinfo did not answer in 30 s");
        });

        backend(1, unreadable).validate(job(5));
        assertThat(backend(1, unreadable).partitions()).isEmpty();
    }

    @Test
    void theSubmissionsNodesSpreadTheWorkersEvenlyWhateverTheTasksPerNodeSetting() {
        LaunchPlan plan = backend(1).plan(job(4, 2));

        assertThat(plan.placement()).containsEntry("nodes", 2).containsEntry("tasksPerNode", 2);
        assertThat(plan.batchScript()).contains("#SBATCH --nodes=2\n", "#SBATCH --ntasks-per-node=2\n");
        assertThatThrownBy(() -> backend(1).validate(job(3, 2)))
                .isInstanceOfSatisfying(InvalidRequestException.class, refused -> assertThat(refused.violations()).singleElement()
                        .isEqualTo(new Violation("nodes", "3 workers do not divide evenly over 2 nodes")));
        assertThatThrownBy(() -> backend(1).validate(job(3, 3)))
                .isInstanceOfSatisfying(InvalidRequestException.class, refused -> assertThat(refused.violations()).singleElement()
                        .isEqualTo(new Violation("nodes", "3 workers need 3 nodes with 1 CPU each; Slurm partition 'gpu' has 2 such nodes")));
    }

    @Test
    void thePlanNumbersEachWorkerOnItsNode() {
        LaunchPlan plan = backend(2).plan(job(4));

        assertThat(plan.placement()).containsEntry("nodes", 2).containsEntry("tasksPerNode", 2).containsEntry("partition", "gpu");
        assertThat(plan.workers()).extracting(worker -> worker.environment().get("LOCAL_RANK")).containsExactly("0", "1", "0", "1");
        assertThat(plan.workers()).extracting(worker -> worker.environment().get("WORLD_SIZE")).containsOnly("4");
        assertThat(plan.batchScript()).contains("#SBATCH --nodes=2\n", "#SBATCH --ntasks-per-node=2\n");
    }
}

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

    private SlurmBackend backend(int tasksPerNode) {
        SlurmProperties properties = new SlurmProperties(true, null, workRoot, "gpu", null, null, Map.of(), tasksPerNode, List.of(),
                Duration.ofSeconds(2), Duration.ofSeconds(30));
        return new SlurmBackend(properties, "node", null);
    }

    private static Job job(int workers) {
        String task = JobBodies.taskConfig("print('hello')", "outputs/model.pt");
        String resource = JobBodies.RESOURCE_CONFIG.formatted(workers);
        JobSpec spec = new JobSpec("on_slurm", SlurmBackend.NAME, "default", TaskConfigReader.read("taskConfig", task),
                ResourceConfigReader.read("resourceConfig", resource, (field, uri) -> {
                    throw new AssertionError(uri);
                }), task, resource, null, null, Map.of(), 0, false, 3600, workers, 1, 0, TrainerImages.SERVER_DEFAULTS);
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
    void thePlanNumbersEachWorkerOnItsNode() {
        LaunchPlan plan = backend(2).plan(job(4));

        assertThat(plan.placement()).containsEntry("nodes", 2).containsEntry("tasksPerNode", 2).containsEntry("partition", "gpu");
        assertThat(plan.workers()).extracting(worker -> worker.environment().get("LOCAL_RANK")).containsExactly("0", "1", "0", "1");
        assertThat(plan.workers()).extracting(worker -> worker.environment().get("WORLD_SIZE")).containsOnly("4");
        assertThat(plan.batchScript()).contains("#SBATCH --nodes=2\n", "#SBATCH --ntasks-per-node=2\n");
    }
}

package io.trainyard.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The parts of GiGL's trainer contract that every backend shares: rendezvous variables and what a run clears. */
class LaunchSpecTest {

    private static final JobFiles FILES = new JobFiles("gs://temp/job/task.yaml", "gs://temp/job/resource.yaml",
            "gs://perm/job/trainer/");
    private static final TrainerImages IMAGES = new TrainerImages("cpu:1", null);

    @Test
    void eachWorkerGetsTorchDistributedsRendezvousAndItsRank() {
        TrainerProgram program = new TrainerProgram(List.of("python", "-m", "train"), false, Map.of(), IMAGES, Map.of(), true);

        List<WorkerLaunch> workers = new LaunchSpec("job", FILES, program, false).workers(2, "10.0.0.1", "29500");

        assertThat(workers).extracting(WorkerLaunch::rank).containsExactly(0, 1);
        assertThat(workers.get(1).environment()).containsEntry("MASTER_ADDR", "10.0.0.1")
                .containsEntry("MASTER_PORT", "29500").containsEntry("WORLD_SIZE", "2").containsEntry("RANK", "1")
                .containsEntry("LOCAL_RANK", "1").containsEntry("LOCAL_WORLD_SIZE", "2")
                .containsEntry("GIGL_TASK_CONFIG_URI", "gs://temp/job/task.yaml")
                .containsEntry("GIGL_CPU_DOCKER_URI", "cpu:1").doesNotContainKey("GIGL_CUDA_DOCKER_URI");
    }

    @Test
    void aTrainingRunClearsItsOutputsAndTheTrainerAssetFolderAndAnInferenceOnlyRunNothing() {
        Map<String, String> outputs = Map.of("trainedModelUri", "gs://perm/job/model.pt");
        TrainerProgram training = new TrainerProgram(List.of("train"), false, Map.of(), IMAGES, outputs, true);
        TrainerProgram skipping = new TrainerProgram(List.of("train"), false, Map.of(), IMAGES, outputs, false);

        assertThat(new LaunchSpec("job", FILES, training, false).outputsToClear())
                .containsExactly("gs://perm/job/model.pt", "gs://perm/job/trainer/");
        assertThat(new LaunchSpec("job", FILES, skipping, false).outputsToClear()).isEmpty();
    }
}

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

    @Test
    void aGraphStoreJobsLastRanksRunTheStorageProgramOnTheCpuAndEveryRankKnowsTheComputeProcessesPerReplica() {
        GraphStoreProcesses graphStore = new GraphStoreProcesses(List.of("python", "-m", "storage"), Map.of("parts", "2"), 1, 2);
        TrainerProgram program = new TrainerProgram(List.of("python", "-m", "train"), false, Map.of("lr", "0.1"), IMAGES, Map.of(),
                true, graphStore);

        // The second host of two runs compute rank 1 and the storage process, rank 2.
        List<WorkerLaunch> workers = new LaunchSpec("job", FILES, program, true).workers(new HostRanks(1, 2, 3, 1), "10.0.0.1",
                "29500");

        assertThat(workers.get(0).argv()).containsSubsequence("train", "--use_cuda", "--lr=0.1");
        assertThat(workers.get(0).environment()).containsEntry("COMPUTE_CLUSTER_LOCAL_WORLD_SIZE", "2")
                .doesNotContainKey("CUDA_VISIBLE_DEVICES");
        assertThat(workers.get(1).argv()).containsExactly("python", "-m", "storage", "--job_name=job",
                "--task_config_uri=gs://temp/job/task.yaml", "--resource_config_uri=gs://temp/job/resource.yaml", "--parts=2");
        assertThat(workers.get(1).environment()).containsEntry("RANK", "2").containsEntry("WORLD_SIZE", "3")
                .containsEntry("COMPUTE_CLUSTER_LOCAL_WORLD_SIZE", "2").containsEntry("CUDA_VISIBLE_DEVICES", "");
    }
}

package io.trainyard.agent.trainer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.trainyard.launch.HostRanks;
import io.trainyard.launch.LaunchSpec;
import io.trainyard.launch.TrainerImages;
import io.trainyard.launch.TrainerProgram;
import io.trainyard.launch.WorkerLaunch;
import org.junit.jupiter.api.Test;

/**
 * The command line and environment a local trainer starts with, checked against GiGL's v1 trainer
 * (gigl/src/training/v1/trainer.py and its test: both images always on the v1 training process's command line,
 * before --use_cuda) and gigl/src/common/utils/gigl_env.py (every launched trainer sees GIGL_CPU_DOCKER_URI and
 * GIGL_CUDA_DOCKER_URI).
 */
class TrainerInvocationTest {

    private static final UUID JOB = UUID.fromString("0b6f1c1e-2f44-4f57-9a3d-6f0e5c2b7a10");
    private static final WorkFolder FOLDER = WorkFolder.of(Path.of("/data"), JOB);
    private static final TrainerInvocation INVOCATION = new TrainerInvocation("127.0.0.1", List.of());
    private static final TrainerImages IMAGES = new TrainerImages("cpu-image:1", "cuda-image:1");

    @Test
    void theLegacyTrainerGetsBothImagesBeforeUseCudaAndNoTrainerArgs() {
        TrainerProgram legacy = new TrainerProgram(List.of("python", "-m", "gigl.src.training.v1.lib.training_process"), true,
                Map.of("optim_lr", "0.005"), IMAGES, Map.of(), true);

        WorkerLaunch worker = INVOCATION.workers(JOB, 1, new LaunchSpec("toy_job", FOLDER.files(), legacy, true), List.of(0),
                HostRanks.wholeWorld(1), "127.0.0.1:29500").getFirst();

        assertThat(worker.argv()).containsExactly("python", "-m", "gigl.src.training.v1.lib.training_process",
                "--job_name=toy_job", "--task_config_uri=file:///data/jobs/" + JOB + "/task_config.yaml",
                "--resource_config_uri=file:///data/jobs/" + JOB + "/resource_config.yaml",
                "--cpu_docker_uri=cpu-image:1", "--cuda_docker_uri=cuda-image:1", "--use_cuda");
        assertThat(worker.environment()).containsEntry("GIGL_CPU_DOCKER_URI", "cpu-image:1")
                .containsEntry("GIGL_CUDA_DOCKER_URI", "cuda-image:1").containsEntry("GIGL_COMPONENT", "Trainer")
                .containsEntry("CUDA_VISIBLE_DEVICES", "0").containsEntry("MASTER_PORT", "29500")
                .containsEntry("TRAINYARD_JOB_ID", JOB.toString());
    }

    @Test
    void theInMemoryTrainerGetsItsArgsAndTheImagesInItsEnvironment() {
        TrainerProgram inMemory = new TrainerProgram(List.of("python", "-m", "train"), false, Map.of("lr", "0.1"),
                IMAGES, Map.of(), true);

        WorkerLaunch worker = INVOCATION.workers(JOB, 1, new LaunchSpec("cora_job", FOLDER.files(), inMemory, false), List.of(),
                HostRanks.wholeWorld(1), "127.0.0.1:29500").getFirst();

        assertThat(worker.argv()).containsExactly("python", "-m", "train", "--job_name=cora_job",
                "--task_config_uri=file:///data/jobs/" + JOB + "/task_config.yaml",
                "--resource_config_uri=file:///data/jobs/" + JOB + "/resource_config.yaml", "--lr=0.1");
        assertThat(worker.environment()).containsEntry("GIGL_CPU_DOCKER_URI", "cpu-image:1")
                .containsEntry("GIGL_CUDA_DOCKER_URI", "cuda-image:1");
    }

    @Test
    void theSecondHostOfAJobSpanningHostsRunsItsRanksAndMeetsTheOthersAtTheFirstHost() {
        TrainerProgram inMemory = new TrainerProgram(List.of("python", "-m", "train"), false, Map.of(), IMAGES, Map.of(), true);

        List<WorkerLaunch> workers = INVOCATION.workers(JOB, 2, new LaunchSpec("cora_job", FOLDER.files(), inMemory, true),
                List.of(2, 3), new HostRanks(2, 2, 4, 1), "10.77.0.2:41000");

        assertThat(workers).extracting(WorkerLaunch::rank).containsExactly(2, 3);
        assertThat(workers.getLast().environment()).containsEntry("RANK", "3").containsEntry("LOCAL_RANK", "1")
                .containsEntry("WORLD_SIZE", "4").containsEntry("LOCAL_WORLD_SIZE", "2").containsEntry("GROUP_RANK", "1")
                .containsEntry("MASTER_ADDR", "10.77.0.2").containsEntry("MASTER_PORT", "41000")
                .containsEntry("CUDA_VISIBLE_DEVICES", "2,3").containsEntry("TRAINYARD_ATTEMPT", "2");
    }
}

package io.trainyard.backend.local;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.trainyard.dispatch.LaunchPlan;
import io.trainyard.gigl.TaskConfig;
import io.trainyard.job.TrainerImages;
import io.trainyard.placement.Placement;

/**
 * The trainer command line and environment of GiGL's contract: {@code <command words> --job_name=…
 * --task_config_uri=… --resource_config_uri=… [--use_cuda] [--k=v per trainerArgs entry]} on the in-memory
 * path, GiGL's v1 training process on the legacy path; the GIGL_* and torch.distributed variables; and
 * {@code CUDA_VISIBLE_DEVICES} naming exactly the job's GPUs (every worker sees them all and picks its own
 * by {@code LOCAL_RANK}, as under torchrun).
 */
public final class TrainerInvocation {

    static final String LEGACY_TRAINER_MODULE = "gigl.src.training.v1.lib.training_process";

    private TrainerInvocation() {
    }

    /**
     * @param images the trainer images, the server's defaults already applied
     * @param masterAddr the torch.distributed rendezvous address (the host's)
     * @param masterPort the rendezvous port, or null in a dry run (it is picked at launch)
     * @throws IllegalArgumentException if the command cannot be split into words
     */
    public static List<LaunchPlan.Worker> workers(UUID jobId, int attempt, String jobName, TaskConfig task,
            TrainerImages images, WorkFolder folder, Placement placement, int workerCount, String masterAddr,
            Integer masterPort) {
        List<String> argv = argv(jobName, task, images, folder, placement.usesGpus());
        List<LaunchPlan.Worker> workers = new ArrayList<>(workerCount);
        for (int rank = 0; rank < workerCount; rank++) {
            Map<String, String> env = new LinkedHashMap<>();
            env.put("GIGL_APPLIED_TASK_IDENTIFIER", jobName);
            env.put("GIGL_TASK_CONFIG_URI", fileUri(folder.taskConfig()));
            env.put("GIGL_RESOURCE_CONFIG_URI", fileUri(folder.resourceConfig()));
            env.put("GIGL_COMPONENT", "Trainer");
            env.put("MASTER_ADDR", masterAddr);
            env.put("MASTER_PORT", masterPort == null ? "(a free port, picked at launch)" : masterPort.toString());
            env.put("WORLD_SIZE", Integer.toString(workerCount));
            env.put("RANK", Integer.toString(rank));
            env.put("LOCAL_RANK", Integer.toString(rank));
            env.put("LOCAL_WORLD_SIZE", Integer.toString(workerCount));
            env.put("CUDA_VISIBLE_DEVICES", String.join(",", placement.gpus().stream().map(String::valueOf).toList()));
            env.put("PYTHONUNBUFFERED", "1");
            env.put("TRAINYARD_JOB_ID", jobId.toString());
            env.put("TRAINYARD_ATTEMPT", Integer.toString(attempt));
            workers.add(new LaunchPlan.Worker(rank, argv, env));
        }
        return workers;
    }

    private static List<String> argv(String jobName, TaskConfig task, TrainerImages images, WorkFolder folder,
            boolean useCuda) {
        List<String> argv = new ArrayList<>();
        if (task.shouldRunGltBackend()) {
            argv.addAll(CommandWords.split(task.trainerCommand()));
        } else {
            argv.addAll(List.of("python", "-m", LEGACY_TRAINER_MODULE));
        }
        argv.add("--job_name=" + jobName);
        argv.add("--task_config_uri=" + fileUri(folder.taskConfig()));
        argv.add("--resource_config_uri=" + fileUri(folder.resourceConfig()));
        if (!task.shouldRunGltBackend()) {
            if (images.cpuDockerUri() != null) {
                argv.add("--cpu_docker_uri=" + images.cpuDockerUri());
            }
            if (images.cudaDockerUri() != null) {
                argv.add("--cuda_docker_uri=" + images.cudaDockerUri());
            }
        }
        if (useCuda) {
            argv.add("--use_cuda");
        }
        if (task.shouldRunGltBackend()) {
            task.trainerArgs().forEach((key, value) -> argv.add("--" + key + "=" + value));
        }
        return List.copyOf(argv);
    }

    public static String fileUri(Path path) {
        return path.toAbsolutePath().toUri().toString();
    }
}

package io.trainyard.agent.trainer;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.trainyard.protocol.TrainerProgram;

/**
 * The trainer command line and environment of GiGL's contract: {@code <command words> --job_name=…
 * --task_config_uri=… --resource_config_uri=… [--use_cuda] [--k=v per trainerArgs entry]} (on the legacy path
 * GiGL's v1 training process, {@code … --cpu_docker_uri=… --cuda_docker_uri=… [--use_cuda]} as GiGL's v1 trainer
 * orders them); GiGL's runtime variables (the job, its configs, the component, both images) and the
 * torch.distributed ones; and {@code CUDA_VISIBLE_DEVICES} naming exactly the job's GPUs (every worker
 * sees them all and picks its own by {@code LOCAL_RANK}, as under torchrun).
 *
 * @param masterAddr the torch.distributed rendezvous address (this host's)
 * @param trainerPath folders put first on the trainers' {@code PATH}, e.g. the runtime's virtual environment,
 *     so a command like {@code python -m trainyard_runtime.train} finds it; empty: the agent's own PATH
 */
public record TrainerInvocation(String masterAddr, List<Path> trainerPath) {

    public TrainerInvocation {
        trainerPath = List.copyOf(trainerPath);
    }

    /**
     * @param gpus the job's GPUs on this host; empty on CPU slots
     * @param masterPort the rendezvous port, or null in a dry run (it is picked at launch)
     */
    public List<WorkerLaunch> workers(UUID jobId, int attempt, String jobName, TrainerProgram program,
            WorkFolder folder, List<Integer> gpus, int workerCount, Integer masterPort) {
        List<String> argv = argv(jobName, program, folder, !gpus.isEmpty());
        List<WorkerLaunch> workers = new ArrayList<>(workerCount);
        for (int rank = 0; rank < workerCount; rank++) {
            Map<String, String> env = new LinkedHashMap<>();
            env.put("GIGL_APPLIED_TASK_IDENTIFIER", jobName);
            env.put("GIGL_TASK_CONFIG_URI", fileUri(folder.taskConfig()));
            env.put("GIGL_RESOURCE_CONFIG_URI", fileUri(folder.resourceConfig()));
            env.put("GIGL_COMPONENT", "Trainer");
            putIfSet(env, "GIGL_CPU_DOCKER_URI", program.cpuDockerUri());
            putIfSet(env, "GIGL_CUDA_DOCKER_URI", program.cudaDockerUri());
            env.put("MASTER_ADDR", masterAddr);
            env.put("MASTER_PORT", masterPort == null ? "(a free port, picked at launch)" : masterPort.toString());
            env.put("WORLD_SIZE", Integer.toString(workerCount));
            env.put("RANK", Integer.toString(rank));
            env.put("LOCAL_RANK", Integer.toString(rank));
            env.put("LOCAL_WORLD_SIZE", Integer.toString(workerCount));
            env.put("CUDA_VISIBLE_DEVICES", String.join(",", gpus.stream().map(String::valueOf).toList()));
            env.put("PYTHONUNBUFFERED", "1");
            env.put("TRAINYARD_JOB_ID", jobId.toString());
            env.put("TRAINYARD_ATTEMPT", Integer.toString(attempt));
            if (!trainerPath.isEmpty()) {
                env.put("PATH", path());
            }
            workers.add(new WorkerLaunch(rank, argv, env));
        }
        return workers;
    }

    /** The PATH trainers are started with: the trainer path first, then the agent's own. */
    public String path() {
        List<String> entries = new ArrayList<>(trainerPath.stream().map(Path::toString).toList());
        String inherited = System.getenv("PATH");
        if (inherited != null && !inherited.isEmpty()) {
            entries.add(inherited);
        }
        return String.join(File.pathSeparator, entries);
    }

    private static List<String> argv(String jobName, TrainerProgram program, WorkFolder folder, boolean useCuda) {
        List<String> argv = new ArrayList<>(program.command());
        argv.add("--job_name=" + jobName);
        argv.add("--task_config_uri=" + fileUri(folder.taskConfig()));
        argv.add("--resource_config_uri=" + fileUri(folder.resourceConfig()));
        if (program.legacy()) {
            if (program.cpuDockerUri() != null) {
                argv.add("--cpu_docker_uri=" + program.cpuDockerUri());
            }
            if (program.cudaDockerUri() != null) {
                argv.add("--cuda_docker_uri=" + program.cudaDockerUri());
            }
        }
        if (useCuda) {
            argv.add("--use_cuda");
        }
        if (!program.legacy()) {
            program.trainerArgs().forEach((key, value) -> argv.add("--" + key + "=" + value));
        }
        return List.copyOf(argv);
    }

    private static void putIfSet(Map<String, String> env, String name, String value) {
        if (value != null) {
            env.put(name, value);
        }
    }

    public static String fileUri(Path path) {
        return path.toAbsolutePath().toUri().toString();
    }
}

package io.trainyard.agent.trainer;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.trainyard.launch.HostRanks;
import io.trainyard.launch.LaunchSpec;
import io.trainyard.launch.WorkerLaunch;

/**
 * The launch contract rendered as this host's trainer processes: each worker of {@link LaunchSpec#workers} with
 * what only the host adds: {@code CUDA_VISIBLE_DEVICES} naming exactly the job's GPUs (every worker sees them
 * all and picks its own by {@code LOCAL_RANK}, as under torchrun; a graph-store job's storage processes see
 * none), unbuffered Python output for the log shipper, the job and attempt, and the trainer path.
 *
 * @param masterAddr the torch.distributed rendezvous address of the jobs whose first host this is (this host's
 *     address as the other hosts reach it)
 * @param trainerPath folders put first on the trainers' {@code PATH}, e.g. the runtime's virtual environment,
 *     so a command like {@code python -m trainyard_runtime.train} finds it; empty: the agent's own PATH
 */
public record TrainerInvocation(String masterAddr, List<Path> trainerPath) {

    public TrainerInvocation {
        trainerPath = List.copyOf(trainerPath);
    }

    /**
     * @param gpus the job's GPUs on this host; empty on CPU slots
     * @param ranks the ranks of the job's world this host runs
     * @param rendezvous where the world meets ({@code host:port}), or null in a dry run (the port is picked at launch)
     */
    public List<WorkerLaunch> workers(UUID jobId, int attempt, LaunchSpec spec, List<Integer> gpus, HostRanks ranks,
            String rendezvous) {
        int colon = rendezvous == null ? -1 : rendezvous.lastIndexOf(':');
        String address = colon < 0 ? masterAddr : rendezvous.substring(0, colon);
        String port = colon < 0 ? "(a free port, picked at launch)" : rendezvous.substring(colon + 1);
        List<WorkerLaunch> workers = new ArrayList<>(ranks.workers());
        for (WorkerLaunch worker : spec.workers(ranks, address, port)) {
            Map<String, String> env = new LinkedHashMap<>(worker.environment());
            env.putIfAbsent("CUDA_VISIBLE_DEVICES", String.join(",", gpus.stream().map(String::valueOf).toList()));
            env.put("PYTHONUNBUFFERED", "1");
            env.put("TRAINYARD_JOB_ID", jobId.toString());
            env.put("TRAINYARD_ATTEMPT", Integer.toString(attempt));
            if (!trainerPath.isEmpty()) {
                env.put("PATH", path());
            }
            workers.add(new WorkerLaunch(worker.rank(), worker.argv(), env));
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

    public static String fileUri(Path path) {
        return path.toAbsolutePath().toUri().toString();
    }
}

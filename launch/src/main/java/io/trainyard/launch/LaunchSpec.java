package io.trainyard.launch;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How one GiGL trainer job is launched, whatever runs it: the only place GiGL's trainer contract is written.
 * Every worker runs {@code <command> --job_name=… --task_config_uri=… --resource_config_uri=… [--use_cuda]
 * [--k=v per trainerArgs entry]} (on the legacy path GiGL's v1 training process, {@code … --cpu_docker_uri=…
 * --cuda_docker_uri=… [--use_cuda]}, as GiGL's v1 trainer orders them) with GiGL's runtime environment (the job,
 * its configs, the component, both images) and, where the backend starts the processes itself, torch
 * distributed's rendezvous variables.
 *
 * <p>Backends render it: the agent into processes (adding what only a host has: its GPUs, its PATH), Vertex AI
 * into a CustomJob's containers (which Vertex AI gives their rendezvous itself).
 *
 * @param useCuda the workers get GPUs
 */
public record LaunchSpec(String jobName, JobFiles files, TrainerProgram program, boolean useCuda) {

    /** The argv: the program's words, then {@link #args()}. */
    public List<String> argv() {
        List<String> argv = new ArrayList<>(program.command());
        argv.addAll(args());
        return List.copyOf(argv);
    }

    /** The flags after the program's words (a container's {@code args}). */
    public List<String> args() {
        List<String> args = new ArrayList<>();
        args.add("--job_name=" + jobName);
        args.add("--task_config_uri=" + files.taskConfig());
        args.add("--resource_config_uri=" + files.resourceConfig());
        if (program.legacy()) {
            addIfSet(args, "cpu_docker_uri", program.images().cpuDockerUri());
            addIfSet(args, "cuda_docker_uri", program.images().cudaDockerUri());
        }
        if (useCuda) {
            args.add("--use_cuda");
        }
        if (!program.legacy()) {
            program.trainerArgs().forEach((key, value) -> args.add("--" + key + "=" + value));
        }
        return List.copyOf(args);
    }

    /** GiGL's runtime context (its {@code get_gigl_runtime_env_vars}): the job, its configs, the component, the images. */
    public Map<String, String> giglEnvironment() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("GIGL_APPLIED_TASK_IDENTIFIER", jobName);
        env.put("GIGL_TASK_CONFIG_URI", files.taskConfig());
        env.put("GIGL_RESOURCE_CONFIG_URI", files.resourceConfig());
        env.put("GIGL_COMPONENT", "Trainer");
        putIfSet(env, "GIGL_CPU_DOCKER_URI", program.images().cpuDockerUri());
        putIfSet(env, "GIGL_CUDA_DOCKER_URI", program.images().cudaDockerUri());
        return env;
    }

    /**
     * The {@code workers} processes of a job on one host, which meet at {@code masterAddr:masterPort}: each runs
     * {@link #argv()} with GiGL's environment and torch distributed's ({@code MASTER_ADDR}, {@code MASTER_PORT},
     * {@code WORLD_SIZE}, {@code RANK}, {@code LOCAL_RANK}, {@code LOCAL_WORLD_SIZE}), as torchrun would set them.
     *
     * @param masterPort the rendezvous port, or a note saying when it is picked (a dry run)
     */
    public List<WorkerLaunch> workers(int workers, String masterAddr, String masterPort) {
        return workers(HostRanks.wholeWorld(workers), masterAddr, masterPort);
    }

    /**
     * One host's share of a job spread over several: ranks {@code firstRank ..} of the world, which meets at the
     * first host's {@code masterAddr:masterPort}; {@code LOCAL_RANK} counts from 0 on each host and
     * {@code GROUP_RANK} numbers the hosts, as torchrun sets them. In graph-store mode the last ranks run the
     * storage program ({@link #storage()}).
     */
    public List<WorkerLaunch> workers(HostRanks host, String masterAddr, String masterPort) {
        GraphStoreProcesses graphStore = program.graphStore();
        List<String> argv = argv();
        List<String> storageArgv = graphStore == null ? List.of() : storage().argv();
        List<WorkerLaunch> launches = new ArrayList<>(host.workers());
        for (int localRank = 0; localRank < host.workers(); localRank++) {
            int rank = host.firstRank() + localRank;
            Map<String, String> env = giglEnvironment();
            if (graphStore != null) {
                env.put("COMPUTE_CLUSTER_LOCAL_WORLD_SIZE", Integer.toString(graphStore.computeProcessesPerReplica()));
            }
            boolean storage = graphStore != null && graphStore.isStorage(rank, host.worldSize());
            if (storage) {
                env.put("CUDA_VISIBLE_DEVICES", "");  // storage processes run on the CPU, as on GiGL's CPU image
            }
            env.put("MASTER_ADDR", masterAddr);
            env.put("MASTER_PORT", masterPort);
            env.put("WORLD_SIZE", Integer.toString(host.worldSize()));
            env.put("RANK", Integer.toString(rank));
            env.put("LOCAL_RANK", Integer.toString(localRank));
            env.put("LOCAL_WORLD_SIZE", Integer.toString(host.workers()));
            env.put("GROUP_RANK", Integer.toString(host.hostIndex()));
            launches.add(new WorkerLaunch(rank, storage ? storageArgv : argv, env));
        }
        return launches;
    }

    /**
     * The launch of a graph-store job's storage processes: {@code graphStoreStorageConfig.command} with the same
     * job and configs, its {@code storageArgs} as flags, never on GPUs (GiGL runs them on the CPU image).
     *
     * @throws IllegalStateException for a job without graph-store mode
     */
    public LaunchSpec storage() {
        GraphStoreProcesses graphStore = program.graphStore();
        if (graphStore == null) {
            throw new IllegalStateException("job " + jobName + " has no graph-store mode");
        }
        return new LaunchSpec(jobName, files, new TrainerProgram(graphStore.storageCommand(), false, graphStore.storageArgs(),
                program.images(), Map.of(), false), false);
    }

    /**
     * What a run deletes before it starts, so a retry never mixes old and new assets (GiGL's semantics): every set
     * {@code trainedModelMetadata} URI and the trainer asset folder, as the config gives them; nothing when the
     * run skips training.
     */
    public List<String> outputsToClear() {
        if (!program.clearsOutputs()) {
            return List.of();
        }
        List<String> uris = new ArrayList<>(program.outputs().values());
        uris.add(files.trainerAssets());
        return uris;
    }

    private static void addIfSet(List<String> args, String flag, String value) {
        if (value != null) {
            args.add("--" + flag + "=" + value);
        }
    }

    private static void putIfSet(Map<String, String> env, String name, String value) {
        if (value != null) {
            env.put(name, value);
        }
    }
}

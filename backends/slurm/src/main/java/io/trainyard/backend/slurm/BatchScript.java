package io.trainyard.backend.slurm;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import io.trainyard.agent.trainer.WorkFolder;
import io.trainyard.launch.LaunchSpec;

/**
 * A job attempt as one Slurm batch script: its {@code #SBATCH} options (shape, time, partition, account, QoS, and a
 * name that is unique to the attempt, by which a restarted server finds a job it submitted just before it died), then
 * one {@code srun} task per worker running the launch contract's argv with its environment. torch distributed's
 * rendezvous comes from Slurm: {@code MASTER_ADDR} is the allocation's first host, {@code RANK} is
 * {@code SLURM_PROCID} and {@code LOCAL_RANK} {@code SLURM_LOCALID}. Each rank's stdout and stderr go to files in
 * the attempt's folder (the server tails them), and each rank, then the script, writes its exit status beside them:
 * the outcome survives Slurm forgetting the job.
 */
final class BatchScript {

    private static final String NAME_PREFIX = "trainyard-";
    /** Rendezvous ports are picked from here on, by job, so two jobs sharing a node rarely pick the same one. */
    private static final int FIRST_MASTER_PORT = 20_000;
    private static final int MASTER_PORTS = 20_000;

    private BatchScript() {
    }

    /**
     * The shape of a job on the cluster.
     *
     * @param gpusPerNode GPUs asked of each node ({@code --gres=gpu:N}), 0 for a CPU job
     */
    record Shape(int nodes, int tasksPerNode, int gpusPerNode) {

        /** {@code workers} tasks, {@code tasksPerNode} to a node (fewer on a job smaller than that), a GPU each with GPUs. */
        static Shape of(int workers, int tasksPerNode, boolean gpus) {
            int perNode = Math.min(workers, tasksPerNode);
            int nodes = (workers + perNode - 1) / perNode;
            return new Shape(nodes, perNode, gpus ? perNode : 0);
        }

        /** {@code workers} tasks spread evenly over {@code nodes} (a submission's {@code nodes}), a GPU each with GPUs. */
        static Shape over(int workers, int nodes, boolean gpus) {
            int perNode = workers / nodes;
            return new Shape(nodes, perNode, gpus ? perNode : 0);
        }

        int tasks() {
            return nodes * tasksPerNode;
        }
    }

    /** Where the batch job's own output goes (Slurm's messages; the ranks' output has files of its own). */
    static Path output(WorkFolder folder, int attempt) {
        return folder.attempt(attempt).resolve("batch.out");
    }

    /** Where the script writes its exit status once its tasks have ended: the outcome, should Slurm forget the job. */
    static Path exitFile(WorkFolder folder, int attempt) {
        return folder.attempt(attempt).resolve("batch.exit");
    }

    /** The Slurm job name of an attempt: unique to it, so a resubmission finds the job instead of submitting twice. */
    static String jobName(UUID jobId, int attempt) {
        return NAME_PREFIX + jobId + "-" + attempt;
    }

    /**
     * @param timeLimitMinutes {@code --time}: the job's timeout rounded up to whole minutes
     * @param trainerPath folders put first on the tasks' PATH
     */
    static String render(UUID jobId, int attempt, Shape shape, SlurmProperties.Allocation allocation, long timeLimitMinutes,
            WorkFolder folder, LaunchSpec spec, List<Path> trainerPath) {
        Path attemptFolder = folder.attempt(attempt);
        List<String> lines = new ArrayList<>();
        lines.add("#!/bin/bash");
        lines.add("#SBATCH --job-name=" + jobName(jobId, attempt));
        lines.add("#SBATCH --comment=trainyard-job-" + jobId + "-attempt-" + attempt);
        lines.add("#SBATCH --nodes=" + shape.nodes());
        lines.add("#SBATCH --ntasks-per-node=" + shape.tasksPerNode());
        if (shape.gpusPerNode() > 0) {
            lines.add("#SBATCH --gres=gpu:" + shape.gpusPerNode());
        }
        lines.add("#SBATCH --time=" + timeLimitMinutes);
        if (allocation.partition() != null) {
            lines.add("#SBATCH --partition=" + allocation.partition());
        }
        if (allocation.account() != null) {
            lines.add("#SBATCH --account=" + allocation.account());
        }
        if (allocation.qos() != null) {
            lines.add("#SBATCH --qos=" + allocation.qos());
        }
        lines.add("#SBATCH --chdir=" + folder.root());
        lines.add("#SBATCH --output=" + output(folder, attempt));
        // Slurm requeues a job whose node failed unless told not to: Trainyard retries it as a new attempt instead.
        lines.add("#SBATCH --no-requeue");
        lines.add("");
        lines.add("# GiGL's runtime environment and torch distributed's rendezvous: the allocation's first host leads.");
        for (Map.Entry<String, String> variable : spec.giglEnvironment().entrySet()) {
            lines.add("export " + variable.getKey() + "=" + quoted(variable.getValue()));
        }
        lines.add("export MASTER_ADDR=\"$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1)\"");
        lines.add("export MASTER_PORT=" + masterPort(jobId, attempt));
        lines.add("export WORLD_SIZE=" + shape.tasks());
        lines.add("export LOCAL_WORLD_SIZE=" + shape.tasksPerNode());
        if (!trainerPath.isEmpty()) {
            lines.add("export PATH=" + quoted(trainerPath.stream().map(Path::toString).collect(Collectors.joining(":"))) + ":\"$PATH\"");
        }
        lines.add("");
        lines.add("srun --kill-on-bad-exit=1 --output=" + quoted(attemptFolder.resolve("rank-%t.stdout").toString())
                + " --error=" + quoted(attemptFolder.resolve("rank-%t.stderr").toString()) + " \\");
        lines.add("  bash -c " + quoted("export RANK=\"$SLURM_PROCID\" LOCAL_RANK=\"$SLURM_LOCALID\"; \"$@\"; status=$?; "
                + "echo \"$status\" > " + quoted(attemptFolder.toString()) + "/rank-\"$SLURM_PROCID\".exit; exit \"$status\"")
                + " trainer \\");
        lines.add("  " + spec.argv().stream().map(BatchScript::quoted).collect(Collectors.joining(" ")));
        lines.add("status=$?");
        lines.add("echo \"$status\" > " + quoted(exitFile(folder, attempt).toString()));
        lines.add("exit \"$status\"");
        return String.join("\n", lines) + "\n";
    }

    /** The rendezvous port of an attempt: the same on every node, and on a resubmission of the same attempt. */
    static int masterPort(UUID jobId, int attempt) {
        return FIRST_MASTER_PORT + Math.floorMod(jobId.hashCode() * 31 + attempt, MASTER_PORTS);
    }

    /** A word for bash, single-quoted: nothing inside is expanded. */
    static String quoted(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }
}

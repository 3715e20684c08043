package io.trainyard.backend.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.trainyard.agent.trainer.WorkFolder;
import io.trainyard.launch.LaunchSpec;
import io.trainyard.launch.TrainerImages;
import io.trainyard.launch.TrainerProgram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BatchScriptTest {

    @TempDir
    Path root;

    private final UUID jobId = UUID.randomUUID();

    private LaunchSpec spec(WorkFolder folder, List<String> command, Map<String, String> trainerArgs) {
        return new LaunchSpec("cora_job", folder.files(), new TrainerProgram(command, false, trainerArgs,
                TrainerImages.SERVER_DEFAULTS, Map.of(), true), false);
    }

    @Test
    void theOptionsGiveTheShapeTimeAllocationAndTheAttemptsOwnName() {
        WorkFolder folder = WorkFolder.of(root, jobId);
        String script = BatchScript.render(jobId, 2, BatchScript.Shape.of(4, 2, true), new SlurmProperties.Allocation("gpu", "ml", "high"),
                90, folder, spec(folder, List.of("python", "-m", "trainer"), Map.of()), List.of());

        assertThat(script.lines().filter(line -> line.startsWith("#SBATCH")).toList()).containsExactly(
                "#SBATCH --job-name=trainyard-" + jobId + "-2",
                "#SBATCH --comment=trainyard-job-" + jobId + "-attempt-2",
                "#SBATCH --nodes=2",
                "#SBATCH --ntasks-per-node=2",
                "#SBATCH --gres=gpu:2",
                "#SBATCH --time=90",
                "#SBATCH --partition=gpu",
                "#SBATCH --account=ml",
                "#SBATCH --qos=high",
                "#SBATCH --chdir=" + folder.root(),
                "#SBATCH --output=" + folder.attempt(2).resolve("batch.out"),
                "#SBATCH --no-requeue");
        assertThat(BatchScript.Shape.of(1, 8, false)).isEqualTo(new BatchScript.Shape(1, 1, 0));
        assertThat(BatchScript.Shape.of(4, 2, false)).isEqualTo(new BatchScript.Shape(2, 2, 0));
    }

    /**
     * The script run by bash with stand-ins for Slurm's {@code srun} (one task, rank 0, its output where Slurm would
     * put it) and {@code scontrol}: the trainer gets its words unexpanded and the launch contract's environment.
     */
    @Test
    void eachTaskRunsTheArgvAsGivenWithTheRendezvousFromSlurm() throws IOException, InterruptedException {
        Path bin = Files.createDirectories(root.resolve("bin"));
        standIn(bin.resolve("scontrol"), "printf 'node7\\nnode8\\n'");
        standIn(bin.resolve("srun"), """
                while [ "${1#--}" != "$1" ]; do
                  case "$1" in --output=*) out="${1#--output=}";; --error=*) err="${1#--error=}";; esac; shift
                done
                SLURM_PROCID=0 SLURM_LOCALID=0 "$@" > "${out//%t/0}" 2> "${err//%t/0}"
                """);
        WorkFolder folder = WorkFolder.of(root.resolve("shared"), jobId);
        Files.createDirectories(folder.attempt(1));
        String python = "import os, sys; print(os.environ['RANK'], os.environ['LOCAL_RANK'], os.environ['WORLD_SIZE'], "
                + "os.environ['MASTER_ADDR'], os.environ['GIGL_APPLIED_TASK_IDENTIFIER'], sys.argv[1:])";
        String script = BatchScript.render(jobId, 1, BatchScript.Shape.of(2, 1, false), new SlurmProperties.Allocation(null, null, null),
                5, folder, spec(folder, List.of("python3", "-c", python), Map.of("note", "it's $HOME `x`")), List.of());
        Path file = root.resolve("batch.sh");
        Files.writeString(file, script);

        ProcessBuilder builder = new ProcessBuilder("bash", file.toString()).directory(root.toFile()).redirectErrorStream(true);
        // Slurm's commands are on the submit host's PATH; the trainer path is put before it for the tasks only.
        builder.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        Process bash = builder.start();
        String out = new String(bash.getInputStream().readAllBytes());
        assertThat(bash.waitFor()).as(out).isZero();

        assertThat(Files.readString(folder.stdout(1, 0))).isEqualTo("0 0 2 node7 cora_job ['--job_name=cora_job', "
                + "'--task_config_uri=" + folder.files().taskConfig() + "', '--resource_config_uri=" + folder.files().resourceConfig()
                + "', \"--note=it's $HOME `x`\"]\n");
        assertThat(Files.readString(folder.exitFile(1, 0)).strip()).isEqualTo("0");
        assertThat(Files.readString(folder.attempt(1).resolve("batch.exit")).strip()).isEqualTo("0");
    }

    @Test
    void aFailingRankLeavesItsExitStatusAndTheScriptExitsWithIt() throws IOException, InterruptedException {
        Path bin = Files.createDirectories(root.resolve("bin"));
        standIn(bin.resolve("scontrol"), "echo node1");
        standIn(bin.resolve("srun"), """
                while [ "${1#--}" != "$1" ]; do shift; done
                SLURM_PROCID=0 SLURM_LOCALID=0 "$@"
                """);
        WorkFolder folder = WorkFolder.of(root, jobId);
        Files.createDirectories(folder.attempt(3));
        String script = BatchScript.render(jobId, 3, BatchScript.Shape.of(1, 1, false), new SlurmProperties.Allocation(null, null, null),
                5, folder, spec(folder, List.of("python3", "-c", "raise SystemExit(7)"), Map.of()), List.of());
        Path file = root.resolve("batch.sh");
        Files.writeString(file, script);

        ProcessBuilder builder = new ProcessBuilder("bash", file.toString()).directory(root.toFile()).redirectErrorStream(true);
        builder.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        Process bash = builder.start();
        bash.getInputStream().readAllBytes();

        assertThat(bash.waitFor()).isEqualTo(7);
        assertThat(Files.readString(folder.exitFile(3, 0)).strip()).isEqualTo("7");
        assertThat(Files.readString(folder.attempt(3).resolve("batch.exit")).strip()).isEqualTo("7");
    }

    private static void standIn(Path file, String body) throws IOException {
        Files.writeString(file, "#!/bin/bash\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}

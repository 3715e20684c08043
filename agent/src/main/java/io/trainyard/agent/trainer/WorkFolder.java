package io.trainyard.agent.trainer;

import java.nio.file.Path;
import java.util.UUID;

import io.trainyard.launch.JobFiles;

/**
 * A job's folder under the data directory: the frozen configs the trainer reads, the trainer's working
 * directory (relative output paths land here), and per attempt the output, exit and pid files of each
 * worker process.
 */
public record WorkFolder(Path root) {

    /** GiGL's trainer asset folder, relative to the work folder (as GiGL's is to the job's perm assets). */
    public static final String TRAINER_ASSETS = "trainer";

    public static WorkFolder of(Path dataDir, UUID jobId) {
        return new WorkFolder(dataDir.resolve("jobs").resolve(jobId.toString()));
    }

    /** The job's configs and trainer asset folder as the trainer is told of them: file URIs. */
    public JobFiles files() {
        return new JobFiles(TrainerInvocation.fileUri(taskConfig()), TrainerInvocation.fileUri(resourceConfig()),
                TrainerInvocation.fileUri(trainerAssets()));
    }

    public Path taskConfig() {
        return root.resolve("task_config.yaml");
    }

    public Path resourceConfig() {
        return root.resolve("resource_config.yaml");
    }

    /** GiGL's trainer asset folder: deleted before each training run like the configured outputs. */
    public Path trainerAssets() {
        return root.resolve(TRAINER_ASSETS);
    }

    public Path attempt(int attempt) {
        return root.resolve("attempts").resolve(Integer.toString(attempt));
    }

    public Path stdout(int attempt, int rank) {
        return attempt(attempt).resolve("rank-" + rank + ".stdout");
    }

    public Path stderr(int attempt, int rank) {
        return attempt(attempt).resolve("rank-" + rank + ".stderr");
    }

    public Path exitFile(int attempt, int rank) {
        return attempt(attempt).resolve("rank-" + rank + ".exit");
    }

    public Path pidFile(int attempt, int rank) {
        return attempt(attempt).resolve("rank-" + rank + ".pid");
    }
}

package io.trainyard.backend.slurm;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Slurm's own commands, run by the server as a submit host: {@code sbatch --parsable}, {@code squeue} with a fixed
 * {@code --format}, {@code scancel}. Chosen over {@code slurmrestd} and over {@code --json}: these options have read
 * and printed the same since long before Slurm 22.05 and still do in 24.x and 25.x, whereas slurmrestd's API
 * version, and the JSON's shape, change with each release.
 *
 * <p>Each command runs with only {@code PATH}, {@code HOME}, {@code LANG} and {@code SLURM_CONF} in its environment:
 * {@code sbatch} hands its environment to the job ({@code --export=ALL}), and the server's own (its tokens, its
 * database password) must not reach a trainer.
 */
class SlurmCommands {

    /** The fields of a job {@link #queue} reads: id, name, state, reason, nodes. {@code |} appears in none of them. */
    private static final String QUEUE_FORMAT = "%i|%j|%T|%r|%N";

    private final Map<String, String> environment;
    private final Duration timeout;

    SlurmCommands(Path conf, Duration timeout) {
        this.timeout = timeout;
        Map<String, String> env = new HashMap<>();
        for (String name : List.of("PATH", "HOME", "LANG")) {
            String value = System.getenv(name);
            if (value != null) {
                env.put(name, value);
            }
        }
        if (conf != null) {
            env.put("SLURM_CONF", conf.toString());
        }
        this.environment = Map.copyOf(env);
    }

    /** A command that failed, or a controller that did not answer in time. */
    static final class SlurmException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        SlurmException(String message) {
            super(message);
        }
    }

    /** One line of {@code squeue}: a job Slurm knows, pending, running or recently ended. */
    record QueuedJob(long id, String name, String state, String reason, String nodes) {
    }

    /** Submits a batch script; returns the Slurm job id. */
    long submit(String script) {
        String out = run(List.of("sbatch", "--parsable"), script).strip();
        // --parsable prints "id" or "id;cluster".
        String id = out.contains(";") ? out.substring(0, out.indexOf(';')) : out;
        try {
            return Long.parseLong(id);
        } catch (NumberFormatException e) {
            throw new SlurmException("sbatch answered '" + out + "', not a job id");
        }
    }

    /** Every job the controller knows, ended ones included (for {@code MinJobAge} after they end): one call. */
    List<QueuedJob> queue() {
        return parseQueue(run(List.of("squeue", "--noheader", "--all", "--states=all", "--format=" + QUEUE_FORMAT), null));
    }

    /** Asks Slurm to end the job: SIGTERM to its tasks, SIGKILL after the cluster's {@code KillWait}. */
    void cancel(long jobId) {
        run(List.of("scancel", Long.toString(jobId)), null);
    }

    static List<QueuedJob> parseQueue(String out) {
        List<QueuedJob> jobs = new ArrayList<>();
        for (String line : out.split("\n")) {
            String[] fields = line.strip().split("\\|", -1);
            if (fields.length != 5) {
                continue;
            }
            try {
                jobs.add(new QueuedJob(Long.parseLong(fields[0]), fields[1], fields[2], fields[3], fields[4]));
            } catch (NumberFormatException e) {
                // An array job's "123_4" or a heterogeneous job's "123+1": never one of this backend's.
            }
        }
        return jobs;
    }

    private String run(List<String> argv, String stdin) {
        ProcessBuilder builder = new ProcessBuilder(argv);
        builder.environment().clear();
        builder.environment().putAll(environment);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new SlurmException(argv.getFirst() + " cannot be run on this server (are Slurm's client commands "
                    + "installed?): " + e.getMessage());
        }
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> readAll(process.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()));
        try (OutputStream in = process.getOutputStream()) {
            if (stdin != null) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            // The command ended without reading its input: its exit status and stderr say why.
        }
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new SlurmException(argv.getFirst() + " did not answer in " + timeout.toSeconds() + " s");
            }
            if (process.exitValue() != 0) {
                throw new SlurmException(argv.getFirst() + " failed (exit " + process.exitValue() + "): " + err.get().strip());
            }
            return out.get();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new SlurmException(argv.getFirst() + " was interrupted");
        } catch (ExecutionException e) {
            throw new SlurmException(argv.getFirst() + "'s output could not be read: " + e.getCause());
        }
    }

    private static String readAll(InputStream stream) {
        try (stream) {
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}

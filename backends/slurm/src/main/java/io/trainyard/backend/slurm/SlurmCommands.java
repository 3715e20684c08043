package io.trainyard.backend.slurm;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Slurm's own commands, run by the server as a submit host or on a login node over SSH ({@link CommandHost}):
 * {@code sbatch --parsable}, {@code squeue}, {@code sinfo} and {@code sacct} with a fixed format, {@code scancel}. Chosen over
 * {@code slurmrestd} and over {@code --json}: these options have read and printed the same since long before Slurm
 * 22.05 and still do in 24.x and 25.x, whereas slurmrestd's API version, and the JSON's shape, change with each
 * release.
 *
 * <p>Each command runs with only {@code PATH}, {@code HOME}, {@code LANG} and {@code SLURM_CONF} in its environment:
 * {@code sbatch} hands its environment to the job ({@code --export=ALL}), and the server's own (its tokens, its
 * database password) must not reach a trainer.
 */
class SlurmCommands {

    /** The fields of a job {@link #queue} reads: id, name, state, reason, nodes. {@code |} appears in none of them. */
    private static final String QUEUE_FORMAT = "%i|%j|%T|%r|%N";
    /**
     * The fields of a node {@link #nodes} reads: name, partition ({@code *} after the default one), CPUs, CPUs by state
     * (allocated/idle/other/total), generic resources, those in use, state. {@code --Format}, since {@code --format} has
     * no letter for the resources in use; a width of 0 prints a field whole.
     */
    private static final String NODE_FORMAT = "NodeList:0|,Partition:0|,CPUs:0|,CPUsState:0|,Gres:0|,GresUsed:0|,StateLong:0";

    /** sacct's line of a cancelled job: "CANCELLED by UID|reason|admin comment" (the comment may hold any character). */
    private static final Pattern CANCELLED_BY = Pattern.compile("^CANCELLED by (\\d+)\\|([^|\\n]*)\\|(.*)$", Pattern.MULTILINE);

    private final CommandHost host;
    private final Map<String, String> environment;
    private final Duration timeout;

    SlurmCommands(CommandHost host, Duration timeout) {
        this.host = host;
        this.timeout = timeout;
        Map<String, String> env = new HashMap<>();
        for (String name : List.of("PATH", "HOME", "LANG")) {
            String value = System.getenv(name);
            if (value != null) {
                env.put(name, value);
            }
        }
        env.putAll(host.environment());
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

    /**
     * What Slurm's accounting recorded of a cancelled job.
     *
     * @param uid the user who cancelled it ({@code sacct}'s "CANCELLED by UID")
     * @param comment the job's {@code AdminComment}, where an operator can say why (scancel takes no reason), or ""
     * @param reason Slurm's own reason, e.g. the one it was pending for, or {@link SlurmStates#NO_REASON}
     */
    record Cancellation(long uid, String comment, String reason) {

        /** Who and why, for the job's history: {@code user} is the uid's name where the cluster knows it. */
        String describe(Optional<String> user) {
            String who = user.map(name -> name + " (uid " + uid + ")").orElse("uid " + uid);
            String why = comment.isEmpty() ? "; no reason given (an operator can leave one as the job's AdminComment)" : ": " + comment;
            String slurmReason = reason.isEmpty() || reason.equals(SlurmStates.NO_REASON) ? "" : " (Slurm's reason: " + reason + ")";
            return "cancelled in Slurm by " + who + ", not through Trainyard" + why + slurmReason;
        }
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

    /**
     * Who cancelled an ended job and why, as the cluster's accounting ({@code sacct}) recorded it; empty while it has
     * not recorded the cancellation yet. Throws where the cluster keeps no accounting (sacct says so).
     */
    Optional<Cancellation> cancellation(long jobId) {
        return parseCancellation(run(List.of("sacct", "--noheader", "--parsable2", "--allocations", "--jobs=" + jobId,
                "--format=State,Reason,AdminComment"), null));
    }

    /** The name of a user of the cluster, from its login node's (or this host's) user database; empty if unknown. */
    Optional<String> userName(long uid) {
        String entry;
        try {
            entry = run(List.of("getent", "passwd", Long.toString(uid)), null);
        } catch (SlurmException e) {
            return Optional.empty();
        }
        int nameEnd = entry.indexOf(':');
        return nameEnd > 0 ? Optional.of(entry.substring(0, nameEnd).strip()) : Optional.empty();
    }

    /** Every node of every partition, once per partition it is in: one call. */
    List<SlurmPartitions.Node> nodes() {
        return parseNodes(run(List.of("sinfo", "--noheader", "--Node", "--Format=" + NODE_FORMAT), null));
    }

    /** Asks Slurm to end the job: SIGTERM to its tasks, SIGKILL after the cluster's {@code KillWait}. */
    void cancel(long jobId) {
        run(List.of("scancel", Long.toString(jobId)), null);
    }

    static List<QueuedJob> parseQueue(String out) {
        List<QueuedJob> jobs = new ArrayList<>();
        for (String[] fields : rows(out, 5)) {
            try {
                jobs.add(new QueuedJob(Long.parseLong(fields[0]), fields[1], fields[2], fields[3], fields[4]));
            } catch (NumberFormatException e) {
                // An array job's "123_4" or a heterogeneous job's "123+1": never one of this backend's.
            }
        }
        return jobs;
    }

    static Optional<Cancellation> parseCancellation(String out) {
        Matcher line = CANCELLED_BY.matcher(out);
        if (!line.find()) {
            return Optional.empty();
        }
        return Optional.of(new Cancellation(Long.parseLong(line.group(1)), line.group(3).strip(), line.group(2)));
    }

    static List<SlurmPartitions.Node> parseNodes(String out) {
        List<SlurmPartitions.Node> nodes = new ArrayList<>();
        for (String[] fields : rows(out, 7)) {
            boolean inDefault = fields[1].endsWith("*");
            String partition = inDefault ? fields[1].substring(0, fields[1].length() - 1) : fields[1];
            try {
                int allocated = Integer.parseInt(fields[3].substring(0, fields[3].indexOf('/')));
                nodes.add(new SlurmPartitions.Node(fields[0], partition, inDefault, fields[6], Integer.parseInt(fields[2]), allocated,
                        gpus(fields[4]), gpus(fields[5])));
            } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
                // A CPU count such as "4+" (nodes of one line differ): not a line of --Node output.
            }
        }
        return nodes;
    }

    /** The lines of a command's {@code |}-separated output that have {@code count} fields, split. */
    private static List<String[]> rows(String out, int count) {
        List<String[]> rows = new ArrayList<>();
        for (String line : out.split("\n")) {
            String[] fields = line.strip().split("\\|", -1);
            if (fields.length == count) {
                rows.add(fields);
            }
        }
        return rows;
    }

    /**
     * The GPUs in a node's generic resources, or those in use: {@code gpu:2}, {@code gpu:a100:4(S:0-1)},
     * {@code gpu:a100:2,gpu:v100:1} (3), {@code gpu:a100:2(IDX:0,2)} (2), {@code gpu:(null):0} (0), {@code (null)} (none).
     */
    static int gpus(String gres) {
        int gpus = 0;
        // Parenthesised parts (sockets, indexes, "(null)") go first: they may hold commas and colons.
        for (String resource : gres.replaceAll("\\([^)]*\\)", "").split(",")) {
            String[] parts = resource.split(":");
            if (parts[0].equals("gpu")) {
                String last = parts[parts.length - 1];
                // "gpu" and "gpu:a100" name one GPU; the count, when there is one, comes last.
                gpus += last.chars().allMatch(Character::isDigit) && parts.length > 1 ? Integer.parseInt(last) : 1;
            }
        }
        return gpus;
    }

    private String run(List<String> argv, String stdin) {
        ProcessBuilder builder = new ProcessBuilder(host.argv(argv));
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

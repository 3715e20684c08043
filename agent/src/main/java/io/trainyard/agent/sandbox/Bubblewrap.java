package io.trainyard.agent.sandbox;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

import io.trainyard.agent.trainer.TrainerOutputs;
import io.trainyard.agent.trainer.WorkFolder;

/**
 * Trainers in a bubblewrap ({@code bwrap}) sandbox: their own PID and IPC namespaces (no process of the host or of
 * another job can be seen, signalled or traced), the host's files read-only with private folders emptied
 * ({@link HostView}), the agent's data folder replaced by an empty one holding only the job's work folder (no
 * admin token, no database password, no other job's folder), a temp folder in the work folder and a {@code /dev/shm}
 * of the job's own, and the secret files the agent was told of covered.
 *
 * <p>An agent running as root also switches the trainer to an unprivileged account ({@code setpriv}, no
 * capabilities, no new privileges): root inside the sandbox could still read root's files that no mount hides. An
 * agent running as another user keeps its uid inside a user namespace, where its trainers have no more rights than
 * itself and see none of its home folder but what they need. The network stays shared: multi-host torch
 * distributed and data downloads need it.
 */
final class Bubblewrap implements TrainerSandbox {

    private final Path dataDir;
    /** Null when the agent is not root: the trainer keeps the agent's uid, in a user namespace. */
    private final TrainerAccount account;
    private final List<String> hostView;
    /** The mounts that cover the secret files, made once: the files are the agent's settings. */
    private final List<String> hiddenFiles;

    /**
     * @param hostView the mounts that empty private folders yet keep the trainer's programs reachable
     * @param hiddenFiles secret files (or folders) of the agent's host no trainer may read, e.g. a TLS key
     */
    Bubblewrap(Path dataDir, TrainerAccount account, List<String> hostView, List<Path> hiddenFiles) {
        this.dataDir = dataDir;
        this.account = account;
        this.hostView = List.copyOf(hostView);
        this.hiddenFiles = covering(hiddenFiles);
    }

    /** An empty folder over each secret folder, an empty file over each secret file; nothing for a missing one. */
    private static List<String> covering(List<Path> hiddenFiles) {
        List<String> mounts = new ArrayList<>();
        for (Path hidden : hiddenFiles) {
            if (Files.isDirectory(hidden)) {
                mounts.addAll(List.of("--tmpfs", hidden.toString()));
            } else if (Files.exists(hidden)) {
                mounts.addAll(List.of("--ro-bind", "/dev/null", hidden.toString()));
            }
        }
        return List.copyOf(mounts);
    }

    @Override
    public void prepare(WorkFolder folder) throws IOException {
        Files.createDirectories(temp(folder));
        TrainerOutputs.clear(List.of(sharedMemory(folder)));
        Files.createDirectories(sharedMemory(folder));
        for (Path owned : List.of(folder.root(), temp(folder), sharedMemory(folder))) {
            Files.setPosixFilePermissions(owned, PosixFilePermissions.fromString("rwx------"));
            if (account != null) {
                Files.setAttribute(owned, "unix:uid", account.uid(), LinkOption.NOFOLLOW_LINKS);
                Files.setAttribute(owned, "unix:gid", account.gid(), LinkOption.NOFOLLOW_LINKS);
            }
        }
    }

    @Override
    public void release(WorkFolder folder) throws IOException {
        TrainerOutputs.clear(List.of(sharedMemory(folder)));
    }

    /**
     * The {@code /dev/shm} of the job's trainers on this host: one folder for all the workers of the job, since they
     * share memory through it (the runtime its graph store, NCCL its buffers), and none of another job's; in the
     * host's {@code /dev/shm}, so it stays in memory. Named after the work folder's path too: two agents on one
     * machine (each with some of its GPUs) may both run a share of a job spanning hosts.
     */
    private static Path sharedMemory(WorkFolder folder) {
        Path host = Path.of("/dev/shm");
        String name = "trainyard-job-" + folder.root().getFileName() + "-"
                + Integer.toHexString(folder.root().toAbsolutePath().toString().hashCode());
        return Files.isDirectory(host) ? host.resolve(name) : folder.root().resolve("shm");
    }

    /**
     * The trainer's temp folder ({@code TMPDIR}), in its work folder. The host's {@code /tmp} is read-only to it like
     * the rest of the host, so nothing one job leaves there reaches another.
     */
    private static Path temp(WorkFolder folder) {
        return folder.root().resolve("tmp");
    }

    @Override
    public List<String> command(WorkFolder folder, int attempt) {
        String work = folder.root().toString();
        String attempts = folder.attempt(attempt).getParent().toString();
        List<String> command = new ArrayList<>(namespaces());
        command.addAll(List.of("--ro-bind", "/", "/", "--dev-bind", "/dev", "/dev", "--proc", "/proc",
                "--bind", sharedMemory(folder).toString(), "/dev/shm"));
        command.addAll(hostView);
        command.addAll(hiddenFiles);
        command.addAll(List.of("--perms", "0711", "--tmpfs", dataDir.toString(),
                "--perms", "0711", "--dir", folder.root().getParent().toString(),
                "--bind", work, work,
                // Its own supervision files (pid, exit status, output) are the agent's to trust: read-only.
                "--ro-bind", attempts, attempts,
                "--chdir", work, "--setenv", "HOME", work, "--setenv", "TMPDIR", temp(folder).toString(), "--"));
        command.addAll(identity());
        // The supervisor leaves SIGTERM and SIGINT ignored, so that a cancel's signal to the process group does not
        // end bwrap before the trainer could shut down cleanly; the trainer gets them back.
        command.addAll(List.of("env", "--default-signal=TERM,INT", "--"));
        return command;
    }

    /**
     * A sandbox of the same kind running {@code true}: whether bwrap, the namespaces and the identity switch work on
     * this host at all, so that an agent that cannot sandbox says so at start instead of failing every job.
     */
    List<String> probe() {
        List<String> command = new ArrayList<>(namespaces());
        command.addAll(List.of("--ro-bind", "/", "/", "--proc", "/proc", "--"));
        command.addAll(identity());
        command.addAll(List.of("env", "--default-signal=TERM,INT", "--", "true"));
        return command;
    }

    private List<String> namespaces() {
        List<String> words = new ArrayList<>(List.of("bwrap", "--die-with-parent", "--unshare-pid", "--unshare-ipc"));
        if (account == null) {
            words.add("--unshare-user");
        }
        return words;
    }

    private List<String> identity() {
        if (account == null) {
            return List.of();
        }
        return List.of("setpriv", "--reuid=" + account.uid(), "--regid=" + account.gid(), "--clear-groups",
                "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--");
    }

    @Override
    public List<Path> deletable(WorkFolder folder, List<Path> paths) throws IOException {
        Path work = folder.root().toRealPath();
        for (Path path : paths) {
            Path existing = path.getParent();
            while (existing != null && !Files.exists(existing)) {
                existing = existing.getParent();
            }
            if (existing == null || !existing.toRealPath().startsWith(work)) {
                throw new IOException("the output " + path + " is outside the job's work folder, where sandboxed trainers "
                        + "cannot write; give trainedModelMetadata paths relative to the work folder");
            }
        }
        return paths;
    }

    @Override
    public String describe() {
        return account == null
                ? "trainers run sandboxed by bubblewrap, as this agent's user in a user namespace"
                : "trainers run sandboxed by bubblewrap, as uid " + account.uid() + " gid " + account.gid();
    }
}

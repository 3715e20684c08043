package io.trainyard.agent.sandbox;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** How an agent isolates its trainers: {@code sandbox} (the default) or {@code none}. */
public enum TrainerIsolation {

    SANDBOX, NONE;

    private static final long PROBE_SECONDS = 20;

    public static TrainerIsolation parse(String text) {
        try {
            return valueOf(text.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("trainer isolation must be 'sandbox' or 'none', got '" + text + "'");
        }
    }

    /**
     * The sandbox of this host's trainers.
     *
     * @param account the identity a root agent switches trainers to
     * @param trainerPath the folders first on the trainers' PATH: they, and the Python installations their
     *     interpreters belong to, stay reachable through private folders
     * @param hiddenFiles secret files no trainer may read even where their mode would let it
     * @throws IllegalStateException when a sandbox cannot run on this host, saying why and what to do
     */
    public TrainerSandbox sandbox(Path dataDir, TrainerAccount account, List<Path> trainerPath, List<Path> hiddenFiles) {
        if (this == NONE) {
            return new Unconfined();
        }
        boolean root = runsAsRoot();
        List<Path> needed = new ArrayList<>(List.of(dataDir));
        needed.addAll(trainerPath);
        needed.addAll(pythonInstallations(trainerPath));
        needed.addAll(agentPath());
        Predicate<Path> isPrivate = root ? TrainerIsolation::closedToOthers : Path.of(System.getProperty("user.home"))::equals;
        Bubblewrap sandbox = new Bubblewrap(dataDir, root ? account : null, HostView.mounts(needed, isPrivate), hiddenFiles);
        probe(sandbox.probe());
        return sandbox;
    }

    private static void probe(List<String> command) {
        String failure;
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!process.waitFor(PROBE_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                failure = "it did not finish within " + PROBE_SECONDS + " s";
            } else if (process.exitValue() != 0) {
                failure = "it exited with " + process.exitValue() + ": " + output;
            } else {
                return;
            }
        } catch (IOException e) {
            failure = e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = "interrupted";
        }
        throw new IllegalStateException("trainers cannot be sandboxed on this host (" + String.join(" ", command) + ": "
                + failure + "). Install bubblewrap (Debian: apt-get install bubblewrap) and, for an agent not running as "
                + "root, allow unprivileged user namespaces; or run trainers unconfined, with the agent's rights, with "
                + "--trainer-isolation=none (trainyard.local.trainer-isolation=none for the server's own agent)");
    }

    private static boolean runsAsRoot() {
        try {
            return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** A folder an account that is neither its owner nor in its group cannot enter. */
    private static boolean closedToOthers(Path folder) {
        try {
            return Files.isDirectory(folder) && ((Integer) Files.getAttribute(folder, "unix:mode") & 0b001) == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /** Where the interpreters in the trainer path are installed: a virtual environment links to its base Python. */
    private static List<Path> pythonInstallations(List<Path> trainerPath) {
        List<Path> installations = new ArrayList<>();
        for (Path folder : trainerPath) {
            try (Stream<Path> files = Files.list(folder)) {
                for (Path python : files.filter(file -> file.getFileName().toString().startsWith("python")).toList()) {
                    Path bin = python.toRealPath().getParent();
                    if (bin.getParent() != null) {
                        installations.add(bin.getParent());
                    }
                }
            } catch (IOException e) {
                // not a folder, or a dangling link: nothing to keep reachable
            }
        }
        return installations;
    }

    /** The agent's own PATH, which trainers inherit after the trainer path. */
    private static List<Path> agentPath() {
        String path = System.getenv("PATH");
        if (path == null) {
            return List.of();
        }
        return Stream.of(path.split(File.pathSeparator)).filter(entry -> entry.startsWith("/")).map(Path::of).toList();
    }
}

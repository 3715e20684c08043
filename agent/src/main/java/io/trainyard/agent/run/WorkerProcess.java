package io.trainyard.agent.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.trainyard.agent.sandbox.InheritedSecrets;
import io.trainyard.agent.system.SystemMetricShipper;
import io.trainyard.agent.trainer.WorkFolder;
import io.trainyard.launch.WorkerLaunch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One trainer process under its supervisor ({@code supervise.py}), found by the supervisor's pid. The
 * supervisor leads the process group, so a signal to the group reaches the trainer and all it forked.
 */
public final class WorkerProcess {

    private static final Logger log = LoggerFactory.getLogger(WorkerProcess.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Two processes with the same pid whose start times differ by more than this are not the same. */
    private static final long START_TIME_TOLERANCE_MILLIS = 1_000;

    private final int rank;
    private final ProcessHandle handle;
    private final long startedAtMillis;
    private final Path exitFile;

    private WorkerProcess(int rank, ProcessHandle handle, long startedAtMillis, Path exitFile) {
        this.rank = rank;
        this.handle = handle;
        this.startedAtMillis = startedAtMillis;
        this.exitFile = exitFile;
    }

    /** How a worker ended: an exit code, a launch error, or nothing recorded (the supervisor was killed). */
    record Exit(Integer exitCode, String launchError) {
        boolean recorded() {
            return exitCode != null || launchError != null;
        }
    }

    /**
     * @param sandbox the words that run the trainer in its sandbox, put before its argv (none: unconfined)
     */
    static WorkerProcess spawn(Supervisor supervisor, List<String> sandbox, WorkerLaunch worker, WorkFolder folder,
            int attempt) throws IOException {
        int rank = worker.rank();
        List<String> command = new ArrayList<>(List.of(supervisor.python(), "-I", supervisor.script().toString(),
                folder.pidFile(attempt, rank).toString(), folder.exitFile(attempt, rank).toString(),
                folder.stdout(attempt, rank).toString(), folder.stderr(attempt, rank).toString(),
                supervisor.fence().file().toString(), Integer.toString(sandbox.size()), "--"));
        command.addAll(sandbox);
        command.addAll(worker.argv());
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(folder.root().toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .redirectErrorStream(true)
                .redirectOutput(folder.attempt(attempt).resolve("rank-" + rank + ".supervisor.log").toFile());
        InheritedSecrets.removeFrom(builder.environment());
        builder.environment().putAll(worker.environment());
        Process process = builder.start();
        long startedAt = process.info().startInstant().map(Instant::toEpochMilli).orElse(System.currentTimeMillis());
        return new WorkerProcess(rank, process.toHandle(), startedAt, folder.exitFile(attempt, rank));
    }

    /** The still-running worker a stored run state names, if that exact process is alive. */
    static Optional<WorkerProcess> find(RunState.Worker worker, WorkFolder folder, int attempt) {
        return ProcessHandle.of(worker.pid())
                .filter(ProcessHandle::isAlive)
                .filter(handle -> handle.info().startInstant()
                        .map(start -> Math.abs(start.toEpochMilli() - worker.startedAtMillis()) < START_TIME_TOLERANCE_MILLIS)
                        .orElse(false))
                .map(handle -> new WorkerProcess(worker.rank(), handle, worker.startedAtMillis(),
                        folder.exitFile(attempt, worker.rank())));
    }

    /**
     * Kills the process group of the supervisor that wrote {@code pidFile}, if it still runs; a process that
     * merely reuses the pid is told apart by its command line, which names the pid file.
     */
    public static void killStray(Path pidFile) {
        try {
            long pid = Long.parseLong(Files.readString(pidFile).strip());
            boolean isItsSupervisor = ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                    .flatMap(handle -> handle.info().commandLine())
                    .map(commandLine -> commandLine.contains(pidFile.toString()))
                    .orElse(false);
            if (isItsSupervisor) {
                log.warn("Killing stray trainer process group {} ({})", pid, pidFile.getParent());
                signalGroup(pid, "KILL");
            }
        } catch (IOException | NumberFormatException e) {
            // never started, or already gone
        }
    }

    /** A worker of a stored run state that is no longer running; only its exit file is left. */
    static WorkerProcess ended(RunState.Worker worker, WorkFolder folder, int attempt) {
        return new WorkerProcess(worker.rank(), null, worker.startedAtMillis(), folder.exitFile(attempt, worker.rank()));
    }

    int rank() {
        return rank;
    }

    RunState.Worker state() {
        return new RunState.Worker(rank, handle == null ? -1 : handle.pid(), startedAtMillis);
    }

    /** The worker as its usage is sampled; none when it ended before this agent found it. */
    Stream<SystemMetricShipper.Worker> sampled() {
        return handle == null ? Stream.empty() : Stream.of(new SystemMetricShipper.Worker(rank, handle));
    }

    boolean isAlive() {
        return handle != null && handle.isAlive();
    }

    /** Sends {@code signal} (e.g. TERM, KILL) to the worker's whole process group. */
    void signalGroup(String signal) {
        if (!isAlive()) {
            return;
        }
        signalGroup(handle.pid(), signal);
    }

    /** Kills what is left of the worker's process group once its supervisor has exited. */
    void killGroupRemnants() {
        if (handle != null) {
            kill("KILL", "-" + handle.pid());
        }
    }

    /** Signals the process group led by {@code pid}, or the process alone if it leads no group yet. */
    static void signalGroup(long pid, String signal) {
        // The group exists once the supervisor has called setsid; until then signal the supervisor itself.
        if (!kill(signal, "-" + pid)) {
            kill(signal, Long.toString(pid));
        }
    }

    Exit exit() {
        try {
            JsonNode record = JSON.readTree(Files.readString(exitFile));
            return new Exit(record.has("exitCode") ? record.get("exitCode").asInt() : null,
                    record.has("launchError") ? record.get("launchError").asString() : null);
        } catch (NoSuchFileException e) {
            return new Exit(null, null);
        } catch (IOException | RuntimeException e) {
            return new Exit(null, "unreadable exit record " + exitFile + ": " + e.getMessage());
        }
    }

    private static boolean kill(String signal, String target) {
        try {
            Process kill = new ProcessBuilder("kill", "-s", signal, "--", target)
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return kill.waitFor(5, TimeUnit.SECONDS) && kill.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}

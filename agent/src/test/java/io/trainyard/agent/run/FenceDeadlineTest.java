package io.trainyard.agent.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.trainyard.agent.trainer.WorkFolder;
import io.trainyard.launch.WorkerLaunch;
import io.trainyard.testing.Eventually;
import io.trainyard.testing.ProcessTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The supervisor (the real supervise.py, in its own session) kills its trainer when the agent's fence deadline
 * passes, and only then: this is what stops a trainer whose agent died from running beside the job's next attempt.
 */
class FenceDeadlineTest {

    private static final Duration PATIENCE = Duration.ofSeconds(10);

    @TempDir
    Path dataDir;

    @Test
    void aTrainerIsKilledWithItsWholeGroupOnceTheDeadlinePassesWithoutAnExitRecord() throws Exception {
        Supervisor supervisor = Supervisor.install(dataDir, "python3");
        supervisor.fence().moveTo(System.nanoTime() + Duration.ofSeconds(1).toNanos());
        WorkFolder folder = WorkFolder.of(dataDir, UUID.randomUUID());
        // The trainer forks a grandchild: a fence must take everything the trainer started.
        WorkerProcess worker = spawn(supervisor, folder, "import subprocess, time\n"
                + "child = subprocess.Popen(['sleep', '300'])\nprint(child.pid, flush=True)\ntime.sleep(300)\n");

        long grandchild = Long.parseLong(awaitFirstLine(folder.stdout(1, 0)));
        awaitGone(worker.state().pid());

        awaitGone(grandchild);
        assertThat(worker.exit().recorded()).isFalse();
        assertThat(Files.readString(folder.attempt(1).resolve("rank-0.supervisor.log"))).contains("fence deadline passed");
    }

    @Test
    void aTrainerWhoseDeadlineKeepsMovingRunsToItsEnd() throws Exception {
        Supervisor supervisor = Supervisor.install(dataDir, "python3");
        supervisor.fence().moveTo(System.nanoTime() + Duration.ofMillis(700).toNanos());
        WorkerProcess worker = spawn(supervisor, WorkFolder.of(dataDir, UUID.randomUUID()), "import time\ntime.sleep(3)\n");

        // A live agent pushes the deadline out five times a second; here, every 100 ms, for longer than it started with.
        long until = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (worker.isAlive() && System.nanoTime() < until) {
            supervisor.fence().moveTo(System.nanoTime() + Duration.ofMillis(700).toNanos());
            Thread.sleep(100);
        }

        assertThat(worker.isAlive()).isFalse();
        assertThat(worker.exit().exitCode()).isZero();
    }

    @Test
    void withoutADeadlineATrainerIsNeverFenced() throws Exception {
        Supervisor supervisor = Supervisor.install(dataDir, "python3");
        supervisor.fence().moveTo(System.nanoTime() - Duration.ofSeconds(1).toNanos());
        supervisor.fence().remove();
        WorkerProcess worker = spawn(supervisor, WorkFolder.of(dataDir, UUID.randomUUID()), "import time\ntime.sleep(1.5)\n");

        awaitGone(worker.state().pid());

        assertThat(worker.exit().exitCode()).isZero();
    }

    @Test
    void aPassedDeadlineOwnedByAProcessThatRunsKillsTheTrainer() throws Exception {
        Supervisor supervisor = Supervisor.install(dataDir, "python3");
        // This JVM owns it, as a live server owns its own agent's deadline: its agent is cut off, fence.
        supervisor.fence().ownByThisProcess();
        supervisor.fence().moveTo(System.nanoTime() + Duration.ofMillis(500).toNanos());
        WorkerProcess worker = spawn(supervisor, WorkFolder.of(dataDir, UUID.randomUUID()), "import time\ntime.sleep(300)\n");

        awaitGone(worker.state().pid());

        assertThat(worker.exit().recorded()).isFalse();
    }

    @Test
    void aPassedDeadlineWhoseOwnerIsGoneLetsTheTrainerRunUntilAStartingServerTakesItOverAndReleasesIt() throws Exception {
        Supervisor supervisor = Supervisor.install(dataDir, "python3");
        Process owner = new ProcessBuilder("sleep", "0").start();
        owner.waitFor();
        // A killed server: a pid and a start time that no running process has (a reused pid has another start time).
        Files.writeString(supervisor.fence().file(), (System.nanoTime() - Duration.ofSeconds(1).toNanos()) + " " + owner.pid() + " 1");
        WorkerProcess worker = spawn(supervisor, WorkFolder.of(dataDir, UUID.randomUUID()), "import time\ntime.sleep(300)\n");

        Thread.sleep(1_500);
        assertThat(worker.isAlive()).isTrue();

        // The next server on this data directory takes the deadline over and holds it however long it starts...
        FenceDeadline.holdAtStart(dataDir, Duration.ofMillis(500));
        Thread.sleep(1_500);
        assertThat(worker.isAlive()).isTrue();
        // ...until it is about to judge leases: then it fires unless an agent pushes it out.
        FenceDeadline.releaseStartHold(dataDir);
        assertThat(Files.readString(supervisor.fence().file())).endsWith(" " + ProcessHandle.current().pid() + " "
                + Files.readString(Path.of("/proc/self/stat")).replaceFirst("^.*\\) ", "").split(" ")[22 - 3]);
        awaitGone(worker.state().pid());
        assertThat(worker.exit().recorded()).isFalse();
    }

    private static WorkerProcess spawn(Supervisor supervisor, WorkFolder folder, String program) throws Exception {
        Files.createDirectories(folder.attempt(1));
        return WorkerProcess.spawn(supervisor, List.of(), new WorkerLaunch(0, List.of("python3", "-c", program), Map.of()), folder, 1);
    }

    private static String awaitFirstLine(Path file) {
        return Eventually.until(file + " has a line", () -> Files.exists(file) ? Files.readString(file) : "",
                text -> text.contains("\n"), PATIENCE).lines().findFirst().orElseThrow();
    }

    private static void awaitGone(long pid) {
        Eventually.await("process " + pid + " exits", () -> !ProcessTable.isRunning(pid), PATIENCE);
    }
}

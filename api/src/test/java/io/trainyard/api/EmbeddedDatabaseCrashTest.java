package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.trainyard.client.model.Job;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server's embedded PostgreSQL killed with SIGKILL mid-job: the server starts it again and loses nothing. */
class EmbeddedDatabaseCrashTest {

    @TempDir
    Path dataDir;

    @Test
    void theServerRestartsItsKilledEmbeddedPostgresAndTheJobEndsWithEveryLine() throws Exception {
        String program = "import time\nfor i in range(1, 801):\n    print('line', i, flush=True)\n    time.sleep(0.01)\n";
        try (RunningServer server = RunningServer.start(null, dataDir, "embedded-node")) {
            TrainyardClient api = server.api();
            UUID id = api.submit(JobBodies.job("outlives_its_postgres", program)).getId();
            api.awaitState(id, Job.StateEnum.RUNNING, Duration.ofSeconds(30));
            Thread.sleep(2_000);

            Path pidFile = dataDir.resolve("postgres").resolve("postmaster.pid");
            long pid = Long.parseLong(Files.readAllLines(pidFile).getFirst().strip());
            ProcessHandle postmaster = ProcessHandle.of(pid).orElseThrow();
            assertThat(postmaster.info().command().orElse("")).contains("postgres");
            postmaster.destroyForcibly();
            postmaster.onExit().get();

            Job job = api.awaitEnded(id, Duration.ofSeconds(90));
            assertThat(job.getState()).isEqualTo(Job.StateEnum.SUCCEEDED);
            assertThat(job.getAttempt()).isEqualTo(1);
            List<String> expected = new ArrayList<>();
            for (int i = 1; i <= 800; i++) {
                expected.add("line " + i);
            }
            assertThat(api.logTexts(id)).containsExactlyElementsOf(expected);
            long newPid = Long.parseLong(Files.readAllLines(pidFile).getFirst().strip());
            assertThat(newPid).isNotEqualTo(pid);
            assertThat(ProcessHandle.of(newPid).map(ProcessHandle::isAlive)).contains(true);
        }
    }
}

package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.trainyard.testing.ApiClient;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A host with GPUs, as {@code nvidia-smi} reports them (a stand-in script prints what the real one would):
 * each worker gets a GPU, the trainer sees exactly the job's GPUs and {@code --use_cuda}, a job that must
 * wait for GPUs stays queued, and one that can never fit fails at once.
 */
class GpuPlacementTest {

    @TempDir
    static Path dataDir;
    static RunningServer server;
    static ApiClient api;

    @BeforeAll
    static void startServer() throws Exception {
        Path nvidiaSmi = dataDir.resolve("nvidia-smi");
        Files.writeString(nvidiaSmi, """
                #!/bin/sh
                echo "0, NVIDIA H100 80GB HBM3, 81559"
                echo "1, NVIDIA H100 80GB HBM3, 81559"
                echo "2, NVIDIA H100 80GB HBM3, 81559"
                """);
        Files.setPosixFilePermissions(nvidiaSmi, PosixFilePermissions.fromString("rwxr-xr-x"));
        server = RunningServer.start(TestDatabase.newDatabaseUrl(), dataDir, "gpu-node", "--trainyard.local.nvidia-smi=" + nvidiaSmi);
        api = server.api();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void eachWorkerGetsAGpuAndSeesExactlyTheJobsGpus() {
        String program = """
                import os, sys
                print("RANK", os.environ["RANK"], "CUDA", os.environ["CUDA_VISIBLE_DEVICES"], "USE_CUDA", "--use_cuda" in sys.argv)
                """;
        String id = api.submit(JobBodies.job("two_gpus", program, 2)).body().get("id").asString();
        JsonNode job = api.awaitEnded(id, Duration.ofSeconds(60));

        assertThat(job.get("state").asString()).isEqualTo("SUCCEEDED");
        assertThat(job.get("placement").get("device").asString()).isEqualTo("gpu");
        assertThat(job.get("placement").get("gpus")).hasSize(2);
        List<String> lines = api.logTexts(id);
        String gpus = job.get("placement").get("gpus").get(0).asInt() + "," + job.get("placement").get("gpus").get(1).asInt();
        assertThat(lines).containsExactlyInAnyOrder("RANK 0 CUDA " + gpus + " USE_CUDA True", "RANK 1 CUDA " + gpus + " USE_CUDA True");
    }

    @Test
    void aJobThatMustWaitForGpusStaysQueuedAndOneThatNeverFitsFailsAtOnce() throws Exception {
        String holder = api.submit(JobBodies.job("holds_two", "import time\ntime.sleep(600)", 2)).body().get("id").asString();
        api.awaitJob(holder, job -> job.get("state").asString().equals("RUNNING"), Duration.ofSeconds(30));

        String waiting = api.submit(JobBodies.job("needs_two", "print('got them')", 2)).body().get("id").asString();
        Map<String, Object> tooBig = JobBodies.job("needs_four", "pass", 4);
        tooBig.put("requireGpus", true);
        String never = api.submit(tooBig).body().get("id").asString();

        JsonNode failed = api.awaitEnded(never, Duration.ofSeconds(10));
        assertThat(failed.get("failureCause").asString()).isEqualTo("NO_CAPACITY");
        assertThat(failed.get("failureMessage").asString()).contains("requires 4 GPU(s)", "has 3");
        Thread.sleep(1_000);
        assertThat(api.job(waiting).get("state").asString()).isEqualTo("QUEUED");

        api.post("/jobs/" + holder + "/cancel", Map.of());
        assertThat(api.awaitEnded(waiting, Duration.ofSeconds(60)).get("state").asString()).isEqualTo("SUCCEEDED");
    }

    @Test
    void aTrainerThatIgnoresSigtermIsKilledAfterTheGracePeriod() {
        String program = """
                import signal, time
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
                print("ignoring SIGTERM", flush=True)
                time.sleep(600)
                """;
        String id = api.submit(JobBodies.job("stubborn", program)).body().get("id").asString();
        api.awaitJob(id, job -> job.get("state").asString().equals("RUNNING"), Duration.ofSeconds(30));
        awaitLine(id, "ignoring SIGTERM");

        long cancelledAt = System.nanoTime();
        api.post("/jobs/" + id + "/cancel", Map.of());
        JsonNode job = api.awaitEnded(id, Duration.ofSeconds(30));

        assertThat(job.get("state").asString()).isEqualTo("CANCELLED");
        // RunningServer sets a 2 s grace period.
        assertThat(Duration.ofNanos(System.nanoTime() - cancelledAt)).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
    }

    private static void awaitLine(String id, String text) {
        api.awaitJob(id, job -> {
            for (JsonNode line : api.get("/jobs/" + id + "/logs").body().get("lines")) {
                if (line.get("text").asString().equals(text)) {
                    return true;
                }
            }
            return false;
        }, Duration.ofSeconds(30));
    }
}

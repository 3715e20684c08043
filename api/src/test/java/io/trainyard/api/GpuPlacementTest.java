package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.trainyard.client.model.Job;
import io.trainyard.client.model.OnAgent;
import io.trainyard.testing.Eventually;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host with GPUs, as {@code nvidia-smi} reports them (a stand-in script prints what the real one would):
 * each worker gets a GPU, the trainer sees exactly the job's GPUs and {@code --use_cuda}, a job that must
 * wait for GPUs stays queued, and one that can never fit fails at once.
 */
class GpuPlacementTest {

    @TempDir
    static Path dataDir;
    static RunningServer server;
    static TrainyardClient api;

    @BeforeAll
    static void startServer() throws Exception {
        server = RunningServer.startWithThreeGpus(dataDir, "gpu-node");
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
        UUID id = api.submit(JobBodies.job("two_gpus", program, 2)).getId();
        Job job = api.awaitEnded(id, Duration.ofSeconds(60));

        assertThat(job.getState()).isEqualTo(Job.StateEnum.SUCCEEDED);
        OnAgent placement = job.getPlacement().getOnAgent();
        assertThat(placement.getDevice()).isEqualTo("gpu");
        assertThat(placement.getGpus()).hasSize(2);
        List<String> lines = api.logTexts(id);
        String gpus = placement.getGpus().get(0) + "," + placement.getGpus().get(1);
        assertThat(lines).containsExactlyInAnyOrder("RANK 0 CUDA " + gpus + " USE_CUDA True", "RANK 1 CUDA " + gpus + " USE_CUDA True");
    }

    @Test
    void aJobThatMustWaitForGpusStaysQueuedAndOneThatNeverFitsFailsAtOnce() throws Exception {
        UUID holder = api.submit(JobBodies.job("holds_two", "import time\ntime.sleep(600)", 2)).getId();
        api.awaitState(holder, Job.StateEnum.RUNNING, Duration.ofSeconds(30));

        UUID waiting = api.submit(JobBodies.job("needs_two", "print('got them')", 2)).getId();
        UUID never = api.submit(JobBodies.job("needs_four", "pass", 4).requireGpus(true)).getId();

        Job failed = api.awaitEnded(never, Duration.ofSeconds(10));
        assertThat(failed.getFailureCause()).isEqualTo(Job.FailureCauseEnum.NO_CAPACITY);
        assertThat(failed.getFailureMessage()).contains("requires 4 GPU(s)", "has 3");
        Thread.sleep(1_000);
        assertThat(api.job(waiting).getState()).isEqualTo(Job.StateEnum.QUEUED);

        api.jobs().cancelJob(holder);
        assertThat(api.awaitEnded(waiting, Duration.ofSeconds(60)).getState()).isEqualTo(Job.StateEnum.SUCCEEDED);
    }

    @Test
    void aTrainerThatIgnoresSigtermIsKilledAfterTheGracePeriod() throws Exception {
        String program = """
                import signal, time
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
                print("ignoring SIGTERM", flush=True)
                time.sleep(600)
                """;
        UUID id = api.submit(JobBodies.job("stubborn", program)).getId();
        api.awaitState(id, Job.StateEnum.RUNNING, Duration.ofSeconds(30));
        Eventually.await("the trainer ignoring SIGTERM", () -> api.logTexts(id).contains("ignoring SIGTERM"), Duration.ofSeconds(30));

        long cancelledAt = System.nanoTime();
        api.jobs().cancelJob(id);
        Job job = api.awaitEnded(id, Duration.ofSeconds(30));

        assertThat(job.getState()).isEqualTo(Job.StateEnum.CANCELLED);
        // RunningServer sets a 2 s grace period.
        assertThat(Duration.ofNanos(System.nanoTime() - cancelledAt)).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
    }
}

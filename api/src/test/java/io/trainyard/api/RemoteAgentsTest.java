package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;

import io.trainyard.client.model.Agent;
import io.trainyard.client.model.Job;
import io.trainyard.client.model.JobEvent;
import io.trainyard.client.model.JobSubmission;
import io.trainyard.client.model.RetryPolicy;
import io.trainyard.testing.AgentProcess;
import io.trainyard.testing.Eventually;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.ServerProcess;
import io.trainyard.testing.TestDatabase;
import io.trainyard.testing.TestJvm;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server with agents in JVMs of their own on loopback, with simulated GPU inventories: gang and best-fit
 * placement across hosts, and what happens when an agent or the server is killed with SIGKILL mid-job.
 */
class RemoteAgentsTest {

    @TempDir
    Path dataDir;

    @Test
    void jobsArePackedOntoTheHostThatFitsThemBestAndAJobNoHostCanHoldFailsAtOnce() throws Exception {
        try (RunningServer server = startServer("packing");
                AgentProcess big = AgentProcess.start(server.api(), "big", dataDir.resolve("big"), 4);
                AgentProcess small = AgentProcess.start(server.api(), "small", dataDir.resolve("small"), 2)) {
            TrainyardClient api = server.api();
            awaitActiveAgents(api, 2);

            UUID pair = api.submit(gpuJob("pair", 2, 3)).getId();
            Job pairRunning = api.awaitState(pair, Job.StateEnum.RUNNING, Duration.ofSeconds(30));
            // Asked for by the explicit per-job field rather than numWorkers.
            JobSubmission quadBody = gpuJob("quad", 1, 8).requireGpus(null).gpus(4);
            UUID quad = api.submit(quadBody).getId();
            Job quadRunning = api.awaitState(quad, Job.StateEnum.RUNNING, Duration.ofSeconds(30));
            UUID single = api.submit(gpuJob("single", 1, 0)).getId();
            UUID huge = api.submit(gpuJob("huge", 8, 0)).getId();

            // Best fit: the 2-GPU job takes the 2-GPU host whole, leaving the 4-GPU host for the 4-GPU job.
            assertThat(pairRunning.getNode()).isEqualTo("small");
            assertThat(pairRunning.getPlacement().getOnAgent().getGpus()).containsExactly(0, 1);
            assertThat(quadRunning.getNode()).isEqualTo("big");
            // Every GPU is taken: the 1-GPU job waits (no partial start) rather than failing.
            assertThat(api.job(single).getState()).isEqualTo(Job.StateEnum.QUEUED);
            Job never = api.awaitEnded(huge, Duration.ofSeconds(10));
            assertThat(never.getFailureCause()).isEqualTo(Job.FailureCauseEnum.NO_CAPACITY);
            assertThat(never.getFailureMessage()).contains("largest host has 4");

            // The 2-GPU host frees up first, and the waiting job takes one of its GPUs.
            Job singleDone = api.awaitEnded(single, Duration.ofSeconds(60));
            assertThat(singleDone.getState()).isEqualTo(Job.StateEnum.SUCCEEDED);
            assertThat(singleDone.getNode()).isEqualTo("small");
            assertThat(api.awaitEnded(pair, Duration.ofSeconds(30)).getState()).isEqualTo(Job.StateEnum.SUCCEEDED);
            assertThat(api.logTexts(pair)).containsExactlyInAnyOrder("rank 0 of 2 sees GPUs 0,1", "rank 1 of 2 sees GPUs 0,1");
            assertThat(api.logTexts(quad)).contains("rank 3 of 4 sees GPUs 0,1,2,3");
            api.jobs().cancelJob(quad);
            assertThat(api.awaitEnded(quad, Duration.ofSeconds(30)).getState()).isEqualTo(Job.StateEnum.CANCELLED);
        }
    }

    @Test
    void theJobOfAnAgentKilledWithSigkillFailsOverToAnotherAgentWithinTheLease() throws Exception {
        try (RunningServer server = startServer("failover", "--trainyard.agent.heartbeat-interval=500ms", "--trainyard.agent.lease=3s");
                AgentProcess first = AgentProcess.start(server.api(), "first", dataDir.resolve("first"), 0, "--cpu-slots=1");
                AgentProcess second = AgentProcess.start(server.api(), "second", dataDir.resolve("second"), 0, "--cpu-slots=1")) {
            TrainyardClient api = server.api();
            awaitActiveAgents(api, 2);
            JobSubmission body = JobBodies.job("fails_over",
                    "import os, time\nprint('attempt', os.environ['TRAINYARD_ATTEMPT'], flush=True)\ntime.sleep(2)\n")
                    .retryPolicy(new RetryPolicy().maxAttempts(2).backoffSeconds(0));
            UUID id = api.submit(body).getId();
            Job running = api.awaitState(id, Job.StateEnum.RUNNING, Duration.ofSeconds(30));
            String lostHost = running.getNode();

            // The host dies: its agent and its trainer with it.
            (lostHost.equals("first") ? first : second).kill();
            killTrainer(dataDir.resolve(lostHost), id);
            long killedAt = System.nanoTime();

            api.awaitJob(id, job -> job.getAttempt() == 2, Duration.ofSeconds(30));
            assertThat(Duration.ofNanos(System.nanoTime() - killedAt)).isLessThan(Duration.ofSeconds(3 + 1 + 3));
            Job done = api.awaitEnded(id, Duration.ofSeconds(60));
            assertThat(done.getState()).isEqualTo(Job.StateEnum.SUCCEEDED);
            assertThat(done.getNode()).isNotEqualTo(lostHost);
            assertThat(api.jobs().listJobEvents(id)).extracting(JobEvent::getCause).contains(JobEvent.CauseEnum.INFRASTRUCTURE);
            assertThat(api.agents().listAgents()).filteredOn(agent -> agent.getId().equals(lostHost))
                    .singleElement().extracting(Agent::getState).isEqualTo(Agent.StateEnum.LOST);
        }
    }

    @Test
    void anAgentRestartedAfterSigkillReattachesToItsTrainerAndTheLogIsComplete() throws Exception {
        try (RunningServer server = startServer("reattach")) {
            TrainyardClient api = server.api();
            Path agentDir = dataDir.resolve("phoenix");
            UUID id;
            try (AgentProcess agent = AgentProcess.start(api, "phoenix", agentDir, 0)) {
                awaitActiveAgents(api, 1);
                id = api.submit(JobBodies.job("outlives_its_agent", ticks(40))).getId();
                Eventually.await("the first lines", () -> api.logTexts(id).size() >= 5, Duration.ofSeconds(30));
                agent.kill();
            }
            try (AgentProcess restarted = AgentProcess.start(api, "phoenix", agentDir, 0)) {
                Job job = api.awaitEnded(id, Duration.ofSeconds(60));

                assertThat(job.getState()).isEqualTo(Job.StateEnum.SUCCEEDED);
                assertThat(job.getAttempt()).isEqualTo(1);
                assertThat(api.logTexts(id)).containsExactlyElementsOf(expectedTicks(40));
                // A relative output path lands in the agent's work folder, not the server's.
                assertThat(job.getOutputs().get("trainedModelUri"))
                        .isEqualTo(agentDir.resolve("jobs").resolve(id.toString()).resolve("outputs/model.pt").toUri().toString());
            }
        }
    }

    @Test
    void aServerKilledWithSigkillDoesNotStopTheRunsOfItsAgents() throws Exception {
        String database = TestDatabase.newDatabaseUrl();
        int port = TestJvm.freePort();
        Path serverDir = dataDir.resolve("server");
        ServerProcess server = ServerProcess.start(database, port, serverDir, "server", AgentProcess.SERVER_ARGUMENTS);
        TrainyardClient api = server.api();
        try (AgentProcess agent = AgentProcess.start(api, "steady", dataDir.resolve("steady"), 0)) {
            awaitActiveAgents(api, 1);
            UUID id = api.submit(JobBodies.job("outlives_the_server", ticks(60))).getId();
            Eventually.await("the first lines", () -> api.logTexts(id).size() >= 5, Duration.ofSeconds(30));

            server.kill();
            // The trainer goes on printing while nobody can store its lines.
            Thread.sleep(3_000);
            server = ServerProcess.start(database, port, serverDir, "server", AgentProcess.SERVER_ARGUMENTS);

            Job job = api.awaitEnded(id, Duration.ofSeconds(60));
            assertThat(job.getState()).isEqualTo(Job.StateEnum.SUCCEEDED);
            assertThat(job.getAttempt()).isEqualTo(1);
            assertThat(api.logTexts(id)).containsExactlyElementsOf(expectedTicks(60));
        } finally {
            server.kill();
        }
    }

    private RunningServer startServer(String nodeId, String... extra) {
        List<String> arguments = new ArrayList<>(AgentProcess.SERVER_ARGUMENTS);
        arguments.addAll(List.of(extra));
        return RunningServer.start(TestDatabase.newDatabaseUrl(), dataDir.resolve("server"), nodeId, arguments.toArray(String[]::new));
    }

    private static void awaitActiveAgents(TrainyardClient api, int count) {
        Eventually.await(count + " active agent(s)", () -> api.agents().listAgents().stream()
                .filter(agent -> agent.getState() == Agent.StateEnum.ACTIVE).count() == count, Duration.ofSeconds(30));
    }

    private static JobSubmission gpuJob(String name, int gpus, int seconds) {
        return JobBodies.job(name, "import os, time\nprint('rank', os.environ['RANK'], 'of', "
                + "os.environ['WORLD_SIZE'], 'sees GPUs', os.environ['CUDA_VISIBLE_DEVICES'], flush=True)\ntime.sleep(" + seconds + ")\n", gpus)
                .requireGpus(true);
    }

    private static String ticks(int count) {
        return "import time\nfor i in range(1, " + (count + 1) + "):\n    print('tick', i, flush=True)\n    time.sleep(0.1)\n";
    }

    private static List<String> expectedTicks(int count) {
        return IntStream.rangeClosed(1, count).mapToObj(i -> "tick " + i).toList();
    }

    /** The trainer's supervisor leads its process group: killing the group kills the trainer too. */
    private static void killTrainer(Path agentDir, UUID jobId) throws Exception {
        Path pidFile = agentDir.resolve("jobs").resolve(jobId.toString()).resolve("attempts/1/rank-0.pid");
        Eventually.await("the supervisor's pid file", () -> Files.exists(pidFile), Duration.ofSeconds(10));
        long pid = Long.parseLong(Files.readString(pidFile).strip());
        new ProcessBuilder("kill", "-s", "KILL", "--", "-" + pid).start().waitFor();
    }
}

package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import io.trainyard.client.model.Agent;
import io.trainyard.client.model.HostShare;
import io.trainyard.client.model.Job;
import io.trainyard.client.model.JobSubmission;
import io.trainyard.client.model.LaunchPlan;
import io.trainyard.client.model.LogLine;
import io.trainyard.client.model.RetryPolicy;
import io.trainyard.testing.AgentProcess;
import io.trainyard.testing.Eventually;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TestDatabase;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jobs spanning several agents (gangs), each agent in a JVM of its own on loopback with simulated GPUs: the ranks of
 * both hosts form one torch.distributed world at the first host's address, a failing rank ends the gang on every host,
 * a lost host fails it and it is retried whole, a gang waits whole for a busy host, and a cancel stops every host.
 */
class GangJobsTest {

    private static final Path RUNTIME_ENVIRONMENT = Path.of("").toAbsolutePath().getParent().resolve("runtime/.venv/bin");
    /** Joins the world with gloo, sums the ranks over it, and prints what each process is. */
    private static final String ALL_REDUCE = """
            import os, time, torch, torch.distributed as dist
            dist.init_process_group('gloo')
            total = torch.tensor([dist.get_rank()])
            dist.all_reduce(total)
            print('rank', os.environ['RANK'], 'of', os.environ['WORLD_SIZE'], 'local', os.environ['LOCAL_RANK'], 'host',
                  os.environ['GROUP_RANK'], 'gpus', os.environ['CUDA_VISIBLE_DEVICES'], 'sum', int(total.item()), flush=True)
            dist.destroy_process_group()
            """;

    @TempDir
    Path dataDir;

    @Test
    void aJobNoHostCanHoldRunsOnTwoAgentsAsOneWorldAndItsLogHasEveryRank() throws Exception {
        try (RunningServer server = startServer("spread");
                AgentProcess one = startAgent(server, "one");
                AgentProcess two = startAgent(server, "two")) {
            TrainyardClient api = server.api();
            awaitActiveAgents(api, 2);

            // A dry run shows each host's ranks as they would start now.
            LaunchPlan plan = api.jobs().dryRunJob(JobBodies.job("all_reduce", ALL_REDUCE, 1).gpus(4));
            assertThat((List<?>) plan.getPlacement().get("moreHosts")).hasSize(1);
            assertThat(plan.getWorkers()).extracting(worker -> worker.getEnvironment().get("LOCAL_RANK") + "@"
                    + worker.getEnvironment().get("GROUP_RANK")).containsExactly("0@0", "1@0", "0@1", "1@1");

            UUID id = api.submit(JobBodies.job("all_reduce", ALL_REDUCE, 1).gpus(4)).getId();
            Job done = api.awaitEnded(id, Duration.ofSeconds(90));

            assertThat(done.getState()).as(done.getFailureMessage()).isEqualTo(Job.StateEnum.SUCCEEDED);
            List<HostShare> moreHosts = done.getPlacement().getOnAgent().getMoreHosts();
            assertThat(moreHosts).singleElement().satisfies(share -> {
                assertThat(share.getNode()).isNotEqualTo(done.getNode());
                assertThat(share.getFirstRank()).isEqualTo(2);
                assertThat(share.getGpus()).containsExactly(0, 1);
            });
            assertThat(api.logTexts(id)).containsExactlyInAnyOrder(
                    "rank 0 of 4 local 0 host 0 gpus 0,1 sum 6", "rank 1 of 4 local 1 host 0 gpus 0,1 sum 6",
                    "rank 2 of 4 local 0 host 1 gpus 0,1 sum 6", "rank 3 of 4 local 1 host 1 gpus 0,1 sum 6");
            // One numbered log, each line tagged with its rank and the agent that ran it.
            List<LogLine> lines = api.logs().getJobLogs(id, null, 100).getLines();
            assertThat(lines).extracting(LogLine::getSeq).containsExactly(1L, 2L, 3L, 4L);
            assertThat(lines).allSatisfy(line -> assertThat(line.getHost())
                    .isEqualTo(line.getRank() < 2 ? done.getNode() : moreHosts.getFirst().getNode()));
        }
    }

    @Test
    void aRankFailingOnOneHostEndsTheGangOnEveryHost() throws Exception {
        try (RunningServer server = startServer("failing");
                AgentProcess one = startAgent(server, "one");
                AgentProcess two = startAgent(server, "two")) {
            TrainyardClient api = server.api();
            awaitActiveAgents(api, 2);
            String program = """
                    import os, sys, time
                    if os.environ['RANK'] == '3':
                        print('rank 3 gives up', flush=True)
                        sys.exit(3)
                    time.sleep(60)
                    """;
            UUID id = api.submit(JobBodies.job("fails_whole", program, 4).nodes(2)).getId();

            Job done = api.awaitEnded(id, Duration.ofSeconds(40));

            assertThat(done.getState()).isEqualTo(Job.StateEnum.FAILED);
            assertThat(done.getFailureCause()).isEqualTo(Job.FailureCauseEnum.USER_CODE);
            String secondHost = done.getPlacement().getOnAgent().getMoreHosts().getFirst().getNode();
            assertThat(done.getFailureMessage()).startsWith("host 1 of 2 (agent " + secondHost + "): rank 3 exited with code 3");
            assertThat(api.logTexts(id)).contains("rank 3 gives up");
            // The sleeping ranks of the other host are killed, not left to finish their minute.
            awaitGone(supervisors(done.getNode(), id, 1), Duration.ofSeconds(10));
        }
    }

    @Test
    void aGangWhoseHostIsLostFailsWholeAndItsRetryRunsOnTheHostsLeft() throws Exception {
        try (RunningServer server = startServer("retried", "--trainyard.agent.heartbeat-interval=500ms", "--trainyard.agent.lease=3s");
                AgentProcess one = startAgent(server, "one");
                AgentProcess two = startAgent(server, "two");
                AgentProcess three = startAgent(server, "three")) {
            TrainyardClient api = server.api();
            awaitActiveAgents(api, 3);
            String program = """
                    import os, time
                    if os.environ['TRAINYARD_ATTEMPT'] == '1':
                        print('up', flush=True)
                        time.sleep(60)
                    print('attempt', os.environ['TRAINYARD_ATTEMPT'], 'rank', os.environ['RANK'], flush=True)
                    """;
            UUID id = api.submit(JobBodies.job("retried_whole", program, 4).gpus(4).nodes(2)
                    .retryPolicy(new RetryPolicy().maxAttempts(2).backoffSeconds(0))).getId();
            Eventually.await("every rank up", () -> api.logTexts(id).size() == 4, Duration.ofSeconds(60));
            Job running = api.job(id);
            String lostHost = running.getPlacement().getOnAgent().getMoreHosts().getFirst().getNode();

            // The second host dies, its agent and its trainers with it.
            List.of(one, two, three).get(List.of("one", "two", "three").indexOf(lostHost)).kill();
            List<Long> lostRanks = supervisors(lostHost, id, 1);
            for (long supervisor : lostRanks) {
                new ProcessBuilder("kill", "-s", "KILL", "--", "-" + supervisor).start().waitFor();
            }
            Job done = api.awaitEnded(id, Duration.ofSeconds(60));

            assertThat(done.getState()).as(done.getFailureMessage()).isEqualTo(Job.StateEnum.SUCCEEDED);
            assertThat(done.getAttempt()).isEqualTo(2);
            assertThat(List.of(done.getNode(), done.getPlacement().getOnAgent().getMoreHosts().getFirst().getNode()))
                    .doesNotContain(lostHost);
            assertThat(api.logTexts(id)).contains("attempt 2 rank 0", "attempt 2 rank 3");
            // The first attempt's ranks on the host that lived were killed when the gang failed.
            awaitGone(supervisors(running.getNode(), id, 1), Duration.ofSeconds(10));
        }
    }

    @Test
    void aGangWaitsWholeWhileOneHostIsBusyAndACancelStopsEveryHost() throws Exception {
        try (RunningServer server = startServer("waits");
                AgentProcess one = startAgent(server, "one");
                AgentProcess two = startAgent(server, "two")) {
            TrainyardClient api = server.api();
            awaitActiveAgents(api, 2);
            UUID busy = api.submit(JobBodies.job("busy", "import time\ntime.sleep(120)\n", 1).gpus(2)).getId();
            String busyHost = api.awaitState(busy, Job.StateEnum.RUNNING, Duration.ofSeconds(30)).getNode();

            JobSubmission gangBody = JobBodies.job("gang", "import time\nprint('up', flush=True)\ntime.sleep(120)\n", 4).gpus(4).nodes(2);
            // A dry run says what it would wait for, and the shape it waits for: two hosts.
            LaunchPlan plan = api.jobs().dryRunJob(gangBody);
            assertThat(plan.getPlacement()).containsEntry("waiting", "needs 2 hosts with 2 GPU(s) free; 1 has");
            assertThat((List<?>) plan.getPlacement().get("moreHosts")).hasSize(1);
            UUID gang = api.submit(gangBody).getId();
            Job waiting = api.awaitJob(gang, job -> job.getWaitingReason() != null, Duration.ofSeconds(10));
            assertThat(waiting.getWaitingReason()).isEqualTo("needs 2 hosts with 2 GPU(s) free; 1 has");
            Thread.sleep(2_000);
            // Nothing started on the free host meanwhile.
            assertThat(api.job(gang).getState()).isEqualTo(Job.StateEnum.QUEUED);
            assertThat(api.agents().listAgents()).filteredOn(agent -> !agent.getId().equals(busyHost))
                    .singleElement().satisfies(agent -> assertThat(agent.getRunningJobs()).isEmpty());

            api.jobs().cancelJob(busy);
            Eventually.await("both hosts' ranks up", () -> api.logTexts(gang).size() == 4, Duration.ofSeconds(60));
            assertThat(api.agents().listAgents()).extracting(Agent::getId).hasSize(2);
            assertThat(api.agents().listAgents()).allSatisfy(agent -> assertThat(agent.getRunningJobs()).singleElement()
                    .satisfies(held -> assertThat(held.getWorkers()).isEqualTo(2)));
            api.jobs().cancelJob(gang);

            assertThat(api.awaitEnded(gang, Duration.ofSeconds(30)).getState()).isEqualTo(Job.StateEnum.CANCELLED);
            List<Long> supervisors = new ArrayList<>(supervisors("one", gang, 1));
            supervisors.addAll(supervisors("two", gang, 1));
            assertThat(supervisors).hasSize(4);
            awaitGone(supervisors, Duration.ofSeconds(15));
        }
    }

    /** The pids of the supervisors of the job's ranks on the agent's host in the attempt (each leads its rank's process group). */
    private List<Long> supervisors(String agentId, UUID jobId, int attempt) throws IOException {
        Path folder = dataDir.resolve(agentId).resolve("jobs").resolve(jobId.toString()).resolve("attempts/" + attempt);
        List<Long> pids = new ArrayList<>();
        try (Stream<Path> files = Files.list(folder)) {
            for (Path pidFile : files.filter(file -> file.toString().endsWith(".pid")).toList()) {
                pids.add(Long.parseLong(Files.readString(pidFile).strip()));
            }
        }
        return pids;
    }

    private static void awaitGone(List<Long> pids, Duration timeout) {
        assertThat(pids).isNotEmpty();
        Eventually.await("processes " + pids + " gone", () -> pids.stream().allMatch(pid -> ProcessHandle.of(pid).isEmpty()), timeout);
    }

    private RunningServer startServer(String nodeId, String... extra) {
        List<String> arguments = new ArrayList<>(AgentProcess.SERVER_ARGUMENTS);
        arguments.addAll(List.of(extra));
        return RunningServer.start(TestDatabase.newDatabaseUrl(), dataDir.resolve("server"), nodeId, arguments.toArray(String[]::new));
    }

    private AgentProcess startAgent(RunningServer server, String agentId) throws Exception {
        return AgentProcess.start(server.api(), agentId, dataDir.resolve(agentId), 2, "--trainer-path=" + RUNTIME_ENVIRONMENT);
    }

    private static void awaitActiveAgents(TrainyardClient api, int count) {
        Eventually.await(count + " active agent(s)", () -> api.agents().listAgents().stream()
                .filter(agent -> agent.getState() == Agent.StateEnum.ACTIVE).count() == count, Duration.ofSeconds(30));
    }
}

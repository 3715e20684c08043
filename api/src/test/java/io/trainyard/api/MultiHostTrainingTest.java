package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.trainyard.client.model.Job;
import io.trainyard.client.model.JobSubmission;
import io.trainyard.client.model.LogLine;
import io.trainyard.client.model.RetryPolicy;
import io.trainyard.testing.Eventually;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.NamespacedPool;
import io.trainyard.testing.NetworkNamespaces;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Training across real network stacks: three agents, each in a network namespace of its own joined to the server's
 * by a veth pair and advertising its own address as the rendezvous. The link-prediction example, its graph split in
 * three parts, runs one rank per host; the ranks sample through all_to_all over gloo between the namespaces. GiGL's
 * graph-store config runs its storage process and compute processes a host each. A gang whose host dies is retried
 * whole on the hosts left.
 */
class MultiHostTrainingTest {

    private static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
    private static final Path RUNTIME_ENVIRONMENT = REPOSITORY.resolve("runtime/.venv/bin");
    private static final Pattern HOLDS = Pattern.compile("\\[trainyard] rank (\\d) holds .* \\((\\d+\\.\\d)%\\)");

    @TempDir
    Path dataDir;

    private NamespacedPool pool;

    @BeforeEach
    void namespaces() {
        String unavailable = NetworkNamespaces.unavailableBecause();
        assumeTrue(unavailable == null, "skipped: " + unavailable);
        assertThat(RUNTIME_ENVIRONMENT.resolve("python")).as("the runtime's virtualenv; run bash runtime/install.sh").exists();
    }

    /** Three hosts; each agent gives its own address as the rendezvous of the jobs whose first host it is. */
    private TrainyardClient startHosts(String... serverArguments) throws Exception {
        pool = NamespacedPool.start(dataDir, "multi-host-server", List.of(serverArguments), "train", 20, 3, host -> List.of(
                "--cpu-slots=1", "--master-addr=" + NamespacedPool.address(20, host), "--trainer-path=" + RUNTIME_ENVIRONMENT));
        return pool.api();
    }

    @AfterEach
    void removeHosts() throws Exception {
        if (pool != null) {
            pool.close();
        }
    }

    @Test
    void linkPredictionOnAGraphSplitOverThreeHostsScoresAsTheSingleProcessRunAndEachHostHoldsAThird() throws Exception {
        TrainyardClient api = startHosts();
        String task = Files.readString(REPOSITORY.resolve("examples/link-prediction/task_config.yaml"));
        String resource = Files.readString(REPOSITORY.resolve("examples/link-prediction/resource_config.yaml"));

        Job single = train(api, "single_process", task, resource, null);
        String partitioned = task.replace("    learning_rate: \"0.005\"\n",
                "    learning_rate: \"0.005\"\n    graph_partitions: \"3\"\n    partitioner: metis\n");
        Job spread = train(api, "over_three_hosts", partitioned, resource.replaceAll("numWorkers: \\d+", "numWorkers: 3"), 3);

        List<String> hosts = new ArrayList<>(List.of(spread.getNode()));
        spread.getPlacement().getOnAgent().getMoreHosts().forEach(share -> hosts.add(share.getNode()));
        assertThat(hosts).doesNotHaveDuplicates().hasSize(3);
        double singleMrr = EvalMetrics.read(single).get("mrr");
        double spreadMrr = EvalMetrics.read(spread).get("mrr");
        assertThat(spreadMrr).as("MRR over three hosts against one process's %s", singleMrr).isCloseTo(singleMrr, within(0.02));
        List<Double> shares = new ArrayList<>();
        for (LogLine line : api.logs().getJobLogs(spread.getId(), null, 10_000).getLines()) {
            Matcher holds = HOLDS.matcher(line.getText());
            if (holds.find()) {
                assertThat(line.getRank()).isEqualTo(Integer.parseInt(holds.group(1)));
                shares.add(Double.parseDouble(holds.group(2)));
            }
        }
        // The figures the README quotes.
        System.out.printf("MultiHostTrainingTest: test MRR %.4f in one process, %.4f over three hosts; graph held per rank %s %%%n",
                singleMrr, spreadMrr, shares);
        assertThat(shares).as("each rank's share of the graph, in %").hasSize(3)
                .allSatisfy(share -> assertThat(share).isLessThanOrEqualTo(45.0));
    }

    @Test
    void gigLsGraphStoreConfigRunsItsStorageProcessAndTwoComputeProcessesOnThreeHosts() throws Exception {
        TrainyardClient api = startHosts();
        String task = Files.readString(REPOSITORY.resolve("examples/graph-store-link-prediction/task_config.yaml"));
        String resource = Files.readString(REPOSITORY.resolve("examples/graph-store-link-prediction/resource_config.yaml"));

        Job graphStore = train(api, "graph_store", task, resource, 3);

        assertThat(graphStore.getWorkers()).as("2 compute processes and 1 storage process").isEqualTo(3);
        List<String> hosts = new ArrayList<>(List.of(graphStore.getNode()));
        graphStore.getPlacement().getOnAgent().getMoreHosts().forEach(share -> hosts.add(share.getNode()));
        assertThat(hosts).doesNotHaveDuplicates().hasSize(3);
        List<LogLine> lines = api.logs().getJobLogs(graphStore.getId(), null, 10_000).getLines();
        LogLine storage = lines.stream().filter(line -> line.getText().contains("storage rank 2 holds")).findFirst().orElseThrow();
        assertThat(storage.getRank()).isEqualTo(2);
        assertThat(storage.getHost()).isEqualTo(hosts.get(2));
        assertThat(lines).extracting(LogLine::getText)
                .anySatisfy(text -> assertThat(text).contains("graph-store mode: 2 compute and 1 storage process(es)"))
                .anySatisfy(text -> assertThat(text).containsPattern("storage rank 2 answered [1-9]\\d* rounds"));
        double mrr = EvalMetrics.read(graphStore).get("mrr");
        System.out.printf("MultiHostTrainingTest: graph-store mode over three hosts, test MRR %.4f%n", mrr);
        assertThat(mrr).isGreaterThan(0.5);
    }

    @Test
    void aGangWhoseHostDiesFailsWholeAndItsRetryRunsOnTheTwoHostsLeft() throws Exception {
        TrainyardClient api = startHosts("--trainyard.agent.heartbeat-interval=500ms", "--trainyard.agent.lease=5s");
        // The ranks meet through the runtime's torch.distributed world across the namespaces; in the first attempt they
        // then wait.
        String program = """
                import os, time
                from trainyard_runtime.distributed import join_process_group
                world = join_process_group(use_cuda=False)
                print('attempt', os.environ['TRAINYARD_ATTEMPT'], 'rank', world.rank, 'of', world.world_size, flush=True)
                if os.environ['TRAINYARD_ATTEMPT'] == '1':
                    time.sleep(120)
                world.barrier()
                """;
        UUID id = api.submit(JobBodies.job("survives_a_host", program, 2).nodes(2)
                .retryPolicy(new RetryPolicy().maxAttempts(2).backoffSeconds(0))).getId();
        Eventually.await("both ranks up", () -> api.logTexts(id).stream().filter(line -> line.startsWith("attempt 1 rank")).count() == 2,
                Duration.ofSeconds(60));
        Job running = api.job(id);
        String lost = running.getPlacement().getOnAgent().getMoreHosts().getFirst().getNode();

        // The second host dies: its agent, and its trainer with it.
        pool.agent(lost).kill();
        Path attempt = dataDir.resolve(lost).resolve("jobs").resolve(id.toString()).resolve("attempts/1");
        long supervisor = Long.parseLong(Files.readString(attempt.resolve("rank-1.pid")).strip());
        new ProcessBuilder("kill", "-s", "KILL", "--", "-" + supervisor).start().waitFor();
        Job done = api.awaitEnded(id, Duration.ofSeconds(90));

        assertThat(done.getState()).as("%s", api.logTexts(id)).isEqualTo(Job.StateEnum.SUCCEEDED);
        assertThat(done.getAttempt()).isEqualTo(2);
        List<String> hosts = List.of(done.getNode(), done.getPlacement().getOnAgent().getMoreHosts().getFirst().getNode());
        assertThat(hosts).doesNotContain(lost).doesNotHaveDuplicates();
        assertThat(api.logTexts(id)).contains("attempt 2 rank 0 of 2", "attempt 2 rank 1 of 2");
    }

    private static Job train(TrainyardClient api, String name, String task, String resource, Integer nodes) {
        UUID id = api.submit(new JobSubmission().jobName(name).taskConfig(task).resourceConfig(resource).nodes(nodes)).getId();
        Job job = api.awaitEnded(id, Duration.ofMinutes(6));
        assertThat(job.getState()).as("job %s, log:%n%s", name, String.join("\n", api.logTexts(id))).isEqualTo(Job.StateEnum.SUCCEEDED);
        return job;
    }
}

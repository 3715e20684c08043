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
import io.trainyard.testing.AgentProcess;
import io.trainyard.testing.Eventually;
import io.trainyard.testing.NetworkNamespaces;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TestDatabase;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Training across real network stacks: three agents, each in a network namespace of its own joined to the server's
 * by a veth pair and advertising its own address as the rendezvous. The link-prediction example, its graph split in
 * three parts, runs one rank per host; the ranks sample through all_to_all over gloo between the namespaces.
 */
class MultiHostTrainingTest {

    private static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
    private static final Path RUNTIME_ENVIRONMENT = REPOSITORY.resolve("runtime/.venv/bin");
    private static final Pattern HOLDS = Pattern.compile("\\[trainyard] rank (\\d) holds .* \\((\\d+\\.\\d)%\\)");

    @TempDir
    Path dataDir;

    private NetworkNamespaces network;
    private RunningServer server;
    private final List<AgentProcess> agents = new ArrayList<>();

    @BeforeEach
    void hosts() throws Exception {
        String unavailable = NetworkNamespaces.unavailableBecause();
        assumeTrue(unavailable == null, "skipped: " + unavailable);
        assertThat(RUNTIME_ENVIRONMENT.resolve("python")).as("the runtime's virtualenv; run bash runtime/install.sh").exists();
        network = NetworkNamespaces.create();
        server = RunningServer.start(TestDatabase.newDatabaseUrl(), dataDir.resolve("server"), "multi-host-server",
                "--server.address=" + NetworkNamespaces.SERVER_ADDRESS, "--trainyard.local.embedded-agent=false");
        for (int i = 1; i <= 3; i++) {
            String address = "10.77.0." + (20 + i);
            String host = network.addHost("train" + i, 20 + i);
            agents.add(AgentProcess.startOn(NetworkNamespaces.on(host), server.api(), host, dataDir.resolve(host),
                    "--cpu-slots=1", "--master-addr=" + address, "--trainer-path=" + RUNTIME_ENVIRONMENT));
        }
        Eventually.await("three agents registered", () -> server.api().agents().listAgents().size() == 3, Duration.ofSeconds(60));
    }

    @AfterEach
    void removeHosts() throws Exception {
        for (AgentProcess agent : agents) {
            agent.kill();
        }
        if (server != null) {
            server.close();
        }
        if (network != null) {
            network.close();
        }
    }

    @Test
    void linkPredictionOnAGraphSplitOverThreeHostsScoresAsTheSingleProcessRunAndEachHostHoldsAThird() throws Exception {
        TrainyardClient api = server.api();
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

    private static Job train(TrainyardClient api, String name, String task, String resource, Integer nodes) {
        UUID id = api.submit(new JobSubmission().jobName(name).taskConfig(task).resourceConfig(resource).nodes(nodes)).getId();
        Job job = api.awaitEnded(id, Duration.ofMinutes(6));
        assertThat(job.getState()).as("job %s, log:%n%s", name, String.join("\n", api.logTexts(id))).isEqualTo(Job.StateEnum.SUCCEEDED);
        return job;
    }
}

package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import io.trainyard.client.model.Job;
import io.trainyard.client.model.JobEvent;
import io.trainyard.client.model.JobSubmission;
import io.trainyard.client.model.RetryPolicy;
import io.trainyard.client.model.ScalarPoint;
import io.trainyard.testing.Eventually;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.LoopbackSshd;
import io.trainyard.testing.RawHttpClient;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.ServerExtension;
import io.trainyard.testing.ServerProcess;
import io.trainyard.testing.TestDatabase;
import io.trainyard.testing.TestJvm;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Jobs on a real Slurm cluster: {@code scripts/slurm-cluster.sh} runs slurmctld and two slurmd "nodes" (node1, node2),
 * each in network and UTS namespaces of its own on this host, with a folder they share. The server submits with
 * Slurm's own commands. Jobs are read as JSON, as any job of a plugged-in backend.
 */
class SlurmJobsTest {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final Path CLUSTER = Path.of(System.getProperty("java.io.tmpdir"), "trainyard-slurm-test");
    private static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
    /** Before the server: it is started with the arguments the cluster's start prints. */
    private static final String[] CLUSTER_ARGUMENTS = startCluster();

    /** The nodes share this host's files, so their trainers run from the runtime's virtualenv (torch, the runtime). */
    @RegisterExtension
    static final ServerExtension server = new ServerExtension("slurm-node", withArgument(CLUSTER_ARGUMENTS,
            "--trainyard.slurm.trainer-path=" + REPOSITORY.resolve("runtime/.venv/bin")));

    @AfterAll
    static void stopCluster() throws IOException, InterruptedException {
        clusterScript("stop");
    }

    @Test
    void aJobOfTwoWorkersRunsOnBothNodesWhichMeetAtTheFirst() {
        String program = "import os, socket\nprint('rank', os.environ['RANK'], 'of', os.environ['WORLD_SIZE'], 'on', "
                + "socket.gethostname(), 'leader', os.environ['MASTER_ADDR'], flush=True)\n";
        UUID id = submit(JobBodies.job("on_two_nodes", program, 2));

        JsonNode job = awaitEnded(id);

        assertThat(job.get("state").asString()).as(job.toString()).isEqualTo("SUCCEEDED");
        assertThat(job.get("backend").asString()).isEqualTo("slurm");
        assertThat(job.get("placement").get("kind").asString()).isEqualTo("slurm");
        assertThat(job.get("placement").get("nodes").asInt()).isEqualTo(2);
        assertThat(job.get("placement").get("hosts").asString()).isEqualTo("node[1-2]");
        assertThat(job.get("placement").get("slurmJobId").asLong()).isPositive();
        assertThat(logTexts(id)).containsExactlyInAnyOrder("rank 0 of 2 on node1 leader node1", "rank 1 of 2 on node2 leader node1");
    }

    @Test
    void ranksOnTwoNodesAllReduceOverGloo() {
        String program = """
                import os, torch, torch.distributed as dist
                dist.init_process_group("gloo")
                value = torch.tensor([float(os.environ["RANK"]) + 1])
                dist.all_reduce(value)
                print("sum", int(value.item()), "on", os.uname().nodename, flush=True)
                dist.destroy_process_group()
                """;
        UUID id = submit(JobBodies.job("all_reduce_on_two_nodes", program, 2));

        JsonNode job = awaitEnded(id);

        assertThat(job.get("state").asString()).as("%s%n%s", job, logTexts(id)).isEqualTo("SUCCEEDED");
        // c10d also warns that it cannot name a client socket's address (the nodes have no DNS): not ours to check
        assertThat(logTexts(id).stream().filter(line -> line.startsWith("sum "))).containsExactlyInAnyOrder("sum 3 on node1",
                "sum 3 on node2");
    }

    /** GiGL's link-prediction example as users run it, its two workers on two nodes joined by DDP over gloo. */
    @Test
    void theLinkPredictionExampleTrainsOnTwoNodes() throws Exception {
        String task = Files.readString(REPOSITORY.resolve("examples/link-prediction/task_config.yaml"));
        String resource = Files.readString(REPOSITORY.resolve("examples/link-prediction/resource_config.yaml"))
                .replaceAll("numWorkers: \\d+", "numWorkers: 2");
        UUID id = submit(new JobSubmission().jobName("link_prediction_on_two_nodes").taskConfig(task).resourceConfig(resource));

        Job job = server.api().awaitEnded(id, Duration.ofMinutes(5));

        assertThat(job.getState()).as("%s%n%s", job, String.join("\n", logTexts(id))).isEqualTo(Job.StateEnum.SUCCEEDED);
        assertThat(job.getPlacement().getOnSlurm().getNodes()).isEqualTo(2);
        assertThat(logTexts(id)).anyMatch(line -> line.contains("2 process(es)"));
        assertThat(EvalMetrics.read(job).get("mrr")).isGreaterThanOrEqualTo(0.5);
    }

    @Test
    void aRankThatFailsFailsTheJobInItsCodeWithItsExitCode() {
        UUID id = submit(JobBodies.job("fails_on_slurm", "print('about to fail', flush=True)\nraise SystemExit(7)\n")
                .retryPolicy(new RetryPolicy().maxAttempts(1)));

        JsonNode job = awaitEnded(id);

        assertThat(job.get("state").asString()).isEqualTo("FAILED");
        assertThat(job.get("failureCause").asString()).isEqualTo("USER_CODE");
        assertThat(job.get("exitCode").asInt()).isEqualTo(7);
        assertThat(logTexts(id)).containsExactly("about to fail");
    }

    /**
     * A node that dies (every process of it killed: slurmd, slurmstepd, the task) stops answering; Slurm marks it DOWN
     * and ends its job NODE_FAIL, which is no fault of the job's code: Trainyard runs it again, on the node left.
     */
    @Test
    void aJobWhoseNodeFailsIsRunAgainOnAnotherAndSucceeds() throws Exception {
        String program = "import socket, time\nprint('on', socket.gethostname(), flush=True)\ntime.sleep(20)\nprint('done', flush=True)\n";
        UUID id = submit(JobBodies.job("outlives_its_node_on_slurm", program)
                .retryPolicy(new RetryPolicy().maxAttempts(2).backoffSeconds(1)));
        Eventually.await("the job says where it runs", () -> !logTexts(id).isEmpty(), WAIT);
        String node = logTexts(id).getFirst().substring("on ".length());
        try {
            clusterScript("fail", node);

            JsonNode job = awaitEnded(id);

            assertThat(job.get("state").asString()).as(job.toString()).isEqualTo("SUCCEEDED");
            assertThat(job.get("attempt").asInt()).isEqualTo(2);
            assertThat(server.api().jobs().listJobEvents(id)).extracting(JobEvent::getMessage)
                    .anyMatch(message -> message != null && message.contains("NODE_FAIL"));
            assertThat(logTexts(id)).contains("on " + node).last().isEqualTo("done");
            assertThat(logTexts(id)).filteredOn(line -> line.startsWith("on ")).last().isNotEqualTo("on " + node);
        } finally {
            clusterScript("start");  // brings the node back; it returns to service when its slurmd registers
        }
    }

    /**
     * Jobs queue in Slurm, not in Trainyard: 200 jobs of two GPU workers each, on a cluster of two nodes with two GPUs
     * each, which runs two such jobs at a time. However many are followed, the controller is read with one squeue per
     * poll interval (2 s), which Slurm's own RPC statistics ({@code sdiag}) count.
     */
    @Test
    void twoHundredQueuedJobsAllSucceedWhileTheControllerIsReadOncePerPollInterval() throws Exception {
        long readsBefore = queueReads();
        Instant started = Instant.now();
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            ids.add(submit(JobBodies.job("queued_on_slurm_" + i, "pass").gpus(2)));
        }
        Eventually.await("200 jobs ended", () -> jobsNamed("queued_on_slurm_", "SUCCEEDED", "FAILED", "CANCELLED") == 200,
                Duration.ofMinutes(10));
        Duration took = Duration.between(started, Instant.now());
        long reads = queueReads() - readsBefore;

        assertThat(jobsNamed("queued_on_slurm_", "SUCCEEDED")).isEqualTo(200);
        assertThat(raw().get("/jobs?limit=500&namePrefix=queued_on_slurm_").body().get("jobs"))
                .allSatisfy(job -> assertThat(job.get("attempt").asInt()).as(job.toString()).isEqualTo(1));
        assertThat(job(ids.getFirst()).get("placement").get("gpusPerNode").asInt()).isEqualTo(1);
        assertThat(reads).as("squeue calls in %s", took).isLessThanOrEqualTo(took.toSeconds() / 2 + 1);
    }

    @Test
    void cancelEndsTheBatchJob() {
        UUID id = submit(JobBodies.job("cancelled_on_slurm", JobBodies.ticking(600, 0.5)));
        Eventually.await("the job runs", () -> "RUNNING".equals(job(id).get("state").asString()), WAIT);

        assertThat(raw().post("/jobs/" + id + "/cancel", null).status()).isBetween(200, 299);

        assertThat(awaitEnded(id).get("state").asString()).isEqualTo("CANCELLED");
    }

    /** scancel'ed by an operator, with a word of why: the job's history says who and why (from Slurm's accounting). */
    @Test
    void aJobCancelledInSlurmBySomeoneElseSaysWhoAndWhy() throws Exception {
        UUID id = submit(JobBodies.job("cancelled_by_an_operator", JobBodies.ticking(600, 0.5)));
        Eventually.await("the job runs", () -> "RUNNING".equals(job(id).get("state").asString()), WAIT);
        String slurmId = job(id).get("placement").get("slurmJobId").asString();

        onCluster(List.of("scontrol", "update", "JobId=" + slurmId, "AdminComment=node1 goes down for maintenance"));
        onCluster(List.of("scancel", slurmId));

        assertThat(awaitEnded(id).get("state").asString()).isEqualTo("CANCELLED");
        JsonNode events = raw().get("/jobs/" + id + "/events").body();
        JsonNode last = events.get(events.size() - 1);
        assertThat(last.get("message").asString())
                .isEqualTo("cancelled in Slurm by root (uid 0), not through Trainyard: node1 goes down for maintenance");
    }

    @Test
    void aJobPastItsTimeoutIsCancelledOnTheClusterAndFailsWithTimeout() {
        UUID id = submit(JobBodies.job("times_out_on_slurm", JobBodies.ticking(600, 0.5)).timeoutSeconds(3L)
                .retryPolicy(new RetryPolicy().maxAttempts(1)));

        JsonNode job = awaitEnded(id);

        assertThat(job.get("state").asString()).isEqualTo("FAILED");
        assertThat(job.get("failureCause").asString()).isEqualTo("TIMEOUT");
    }

    /** Killed with SIGKILL while its batch job runs, the server finds the job again by its name when it restarts. */
    @Test
    void aServerKilledMidJobFollowsItsBatchJobAgainAndItsLogHasEveryLineOnce(@TempDir Path dataDir) throws Exception {
        String database = TestDatabase.newDatabaseUrl();
        UUID id;
        try (ServerProcess first = ServerProcess.start(database, TestJvm.freePort(), dataDir, "slurm-killed", List.of(CLUSTER_ARGUMENTS))) {
            RawHttpClient.Response created = first.api().raw().post("/jobs", JobBodies.asJson(
                    JobBodies.job("outlives_its_server_on_slurm", JobBodies.ticking(60, 0.2)).backend("slurm")));
            id = UUID.fromString(created.body().get("id").asString());
            Eventually.await("the job runs", () -> "RUNNING".equals(first.api().raw().get("/jobs/" + id).body().get("state").asString()),
                    WAIT);
        }

        try (RunningServer restarted = RunningServer.start(database, dataDir, "slurm-killed", CLUSTER_ARGUMENTS)) {
            RawHttpClient api = restarted.api().raw();
            Eventually.await("the job ended", () -> !List.of("STARTING", "RUNNING").contains(api.get("/jobs/" + id).body().get("state").asString()),
                    WAIT);
            JsonNode job = api.get("/jobs/" + id).body();

            assertThat(job.get("state").asString()).as(job.toString()).isEqualTo("SUCCEEDED");
            assertThat(job.get("attempt").asInt()).isEqualTo(1);
            List<String> expected = new ArrayList<>();
            for (int i = 1; i <= 60; i++) {
                expected.add("tick " + i);
            }
            assertThat(restarted.api().logTexts(id)).containsExactlyElementsOf(expected);
        }
    }

    /**
     * With {@code trainyard.slurm.ssh}, Slurm's commands run on a login node: here OpenSSH's sshd on loopback, which logs
     * each command it runs. The job, its log and the partitions come through it.
     */
    @Test
    void aServerWhoseSlurmIsBehindALoginNodeRunsItsCommandsThereOverSsh(@TempDir Path dataDir) throws Exception {
        assumeTrue(LoopbackSshd.available(), "needs OpenSSH's sshd: apt-get install openssh-server");
        try (LoopbackSshd login = LoopbackSshd.start()) {
            List<String> arguments = new ArrayList<>(List.of(CLUSTER_ARGUMENTS));
            arguments.addAll(login.slurmArguments());
            try (RunningServer viaLogin = RunningServer.start(TestDatabase.newDatabaseUrl(), dataDir, "slurm-ssh",
                    arguments.toArray(String[]::new))) {
                RawHttpClient api = viaLogin.api().raw();
                RawHttpClient.Response created = api.post("/jobs", JobBodies.asJson(JobBodies.job("through_a_login_node",
                        "import socket\nprint('on', socket.gethostname(), flush=True)\n", 2).backend("slurm")));
                assertThat(created.status()).as(created.body().toString()).isEqualTo(201);
                UUID id = UUID.fromString(created.body().get("id").asString());
                Eventually.await("the job ended", () -> !List.of("QUEUED", "STARTING", "RUNNING")
                        .contains(api.get("/jobs/" + id).body().get("state").asString()), WAIT);

                assertThat(api.get("/jobs/" + id).body().get("state").asString()).isEqualTo("SUCCEEDED");
                assertThat(viaLogin.api().logTexts(id)).containsExactlyInAnyOrder("on node1", "on node2");
                JsonNode partitions = api.get("/backends/slurm/partitions").body();
                assertThat(partitions.get("partitions").get(0).get("nodes").size()).as(partitions.toString()).isEqualTo(2);
                assertThat(login.commandLog()).anyMatch(command -> command.contains("'sbatch' '--parsable'"))
                        .anyMatch(command -> command.contains("'squeue'")).anyMatch(command -> command.contains("'sinfo'"))
                        .allMatch(command -> command.startsWith("'env' 'SLURM_CONF="));
            }
        }
    }

    /**
     * The Pool page's partitions: each node with its CPUs and GPUs, those a running job holds counted as used; a job that
     * Slurm holds back for them has Slurm's reason as its waitingReason.
     */
    @Test
    void thePartitionsShowTheGpusARunningJobHoldsAndAJobWaitingForThemSaysWhy() {
        UUID id = submit(JobBodies.job("holds_two_gpus_on_slurm", JobBodies.ticking(40, 0.25)).gpus(2).nodes(1));
        Eventually.await("the job runs", () -> "RUNNING".equals(job(id).get("state").asString()), WAIT);
        String host = job(id).get("placement").get("hosts").asString();

        // Other tests' jobs may hold the other node: only the job's own node is known.
        Eventually.await("a reading shows both GPUs of the job's node in use", () -> nodeOfPartition(host).get("gpusUsed").asInt() == 2,
                Duration.ofSeconds(30));
        assertThat(nodeOfPartition(host).get("state").asString()).isIn("mixed", "allocated");
        JsonNode partition = raw().get("/backends/slurm/partitions").body().get("partitions").get(0);
        assertThat(partition.get("name").asString()).isEqualTo("debug");
        assertThat(partition.get("isDefault").asBoolean()).isTrue();
        assertThat(partition.get("gpus").asInt()).isEqualTo(4);
        assertThat(partition.get("cpus").asInt()).isEqualTo(8);
        assertThat(partition.get("gpusUsed").asInt()).isBetween(2, 4);
        assertThat(raw().get("/backends/local/partitions").status()).isEqualTo(404);

        // A job wanting every GPU of both nodes waits in Slurm's queue behind it, and says why.
        UUID waiting = submit(JobBodies.job("waits_for_gpus_on_slurm", "pass").gpus(4).nodes(2));
        Eventually.await("Slurm's reason shows", () -> job(waiting).path("waitingReason").asString("")
                .matches("Slurm: (Resources|Priority)"), Duration.ofSeconds(30));
        assertThat(job(waiting).get("state").asString()).isEqualTo("STARTING");
        raw().post("/jobs/" + waiting + "/cancel", null);
        raw().post("/jobs/" + id + "/cancel", null);
    }

    @Test
    void theDryRunAnswersTheExactBatchScript() {
        RawHttpClient.Response plan = raw().post("/jobs/dry-run", JobBodies.asJson(JobBodies.job("planned_on_slurm", "pass", 2)
                .backend("slurm")));

        assertThat(plan.status()).as(plan.body().toString()).isEqualTo(200);
        String script = plan.body().get("batchScript").asString();
        assertThat(script).startsWith("#!/bin/bash\n").contains("#SBATCH --nodes=2\n", "#SBATCH --ntasks-per-node=1\n",
                "#SBATCH --partition=debug\n", "\nsrun ");
        assertThat(plan.body().get("placement").get("nodes").asInt()).isEqualTo(2);

        RawHttpClient.Response spread = raw().post("/jobs/dry-run", JobBodies.asJson(JobBodies.job("spread_on_slurm", "pass", 4)
                .backend("slurm").nodes(2)));
        assertThat(spread.status()).as(spread.body().toString()).isEqualTo(200);
        assertThat(spread.body().get("batchScript").asString()).contains("#SBATCH --nodes=2\n", "#SBATCH --ntasks-per-node=2\n");
    }

    @Test
    void theScalarsATrainerWritesOnItsNodeArriveThroughTheMetricsApi() throws Exception {
        String program = """
                from torch.utils.tensorboard import SummaryWriter
                writer = SummaryWriter(log_dir="outputs/tensorboard")
                for step in range(50):
                    writer.add_scalar("loss", 1.0 / (step + 1), step)
                writer.close()
                """;
        UUID id = submit(JobBodies.writingTensorBoard(JobBodies.job("scalars_on_slurm", program)));

        JsonNode job = awaitEnded(id);

        assertThat(job.get("state").asString()).as(job.toString()).isEqualTo("SUCCEEDED");
        assertThat(job.get("links").get("tensorboard").asString()).isEqualTo("/jobs/" + id + "/tensorboard/");
        List<ScalarPoint> points = server.api().metrics().getJobMetricSeries(id, "loss", null, null, null).getPoints();
        assertThat(points).extracting(ScalarPoint::getStep).containsExactlyElementsOf(LongStream.range(0, 50).boxed().toList());
        assertThat(points.getLast().getValue()).isEqualTo(1.0 / 50, within(1e-6));
    }

    @Test
    void aJobNeedingMoreNodesThanThePartitionHasIsRefusedAtSubmissionOnItsField() {
        RawHttpClient.Response refused = raw().post("/jobs", JobBodies.asJson(JobBodies.job("too_big_for_slurm", "pass", 3)
                .backend("slurm")));

        assertThat(refused.status()).as(refused.body().toString()).isEqualTo(422);
        JsonNode error = refused.body().get("errors").get(0);
        assertThat(error.get("field").asString()).isEqualTo("resourceConfig.trainerResourceConfig.localTrainerConfig.numWorkers");
        assertThat(error.get("message").asString()).isEqualTo("3 workers need 3 nodes with 1 CPU each; Slurm partition 'debug' has 2 such nodes");
    }

    /** The node of that name in the default partition, as the server last read it. */
    private static JsonNode nodeOfPartition(String name) {
        for (JsonNode node : raw().get("/backends/slurm/partitions").body().get("partitions").get(0).get("nodes")) {
            if (node.get("name").asString().equals(name)) {
                return node;
            }
        }
        throw new AssertionError("no node " + name + " in the partitions");
    }

    private static UUID submit(JobSubmission submission) {
        RawHttpClient.Response created = raw().post("/jobs", JobBodies.asJson(submission.backend("slurm")));
        assertThat(created.status()).as(created.body().toString()).isEqualTo(201);
        return UUID.fromString(created.body().get("id").asString());
    }

    private static JsonNode awaitEnded(UUID id) {
        Eventually.await("the job ended", () -> List.of("SUCCEEDED", "FAILED", "CANCELLED").contains(job(id).get("state").asString()),
                WAIT);
        return job(id);
    }

    private static JsonNode job(UUID id) {
        return raw().get("/jobs/" + id).body();
    }

    private static List<String> logTexts(UUID id) {
        return server.api().logTexts(id);
    }

    private static RawHttpClient raw() {
        return server.api().raw();
    }

    /** How many jobs whose name starts with {@code prefix} are in one of these states. */
    private static int jobsNamed(String prefix, String... states) {
        String query = "/jobs?limit=500&namePrefix=" + prefix + Arrays.stream(states).map(state -> "&state=" + state)
                .collect(Collectors.joining());
        return raw().get(query).body().get("jobs").size();
    }

    /** Reads of the job queue (squeue's REQUEST_JOB_INFO) the controller has answered since it started. */
    private static long queueReads() throws IOException, InterruptedException {
        String out = String.join("\n", onCluster(List.of("sdiag")));
        Matcher count = Pattern.compile("REQUEST_JOB_INFO\\s+\\(\\s*\\d+\\)\\s+count:(\\d+)").matcher(out);
        return count.find() ? Long.parseLong(count.group(1)) : 0;
    }

    private static String[] withArgument(String[] arguments, String argument) {
        String[] all = Arrays.copyOf(arguments, arguments.length + 1);
        all[arguments.length] = argument;
        return all;
    }

    /** Starts the cluster (or finds it running) and answers the server arguments its start prints last. */
    private static String[] startCluster() {
        try {
            List<String> lines = clusterScript("start");
            return Arrays.stream(lines.getLast().strip().split(" ")).toArray(String[]::new);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the Slurm cluster", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted starting the Slurm cluster", e);
        }
    }

    private static List<String> clusterScript(String... command) throws IOException, InterruptedException {
        List<String> commandLine = new ArrayList<>(List.of("bash", Path.of("..", "scripts", "slurm-cluster.sh").toString()));
        commandLine.addAll(List.of(command));
        return onCluster(commandLine);
    }

    /** Runs a command against the test's cluster (the script's folder, Slurm's config) and answers its output lines. */
    private static List<String> onCluster(List<String> commandLine) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(commandLine).redirectErrorStream(true);
        builder.environment().put("TRAINYARD_SLURM_DIR", CLUSTER.toString());
        builder.environment().put("SLURM_CONF", CLUSTER.resolve("etc/slurm.conf").toString());
        Process process = builder.start();
        List<String> lines = new ArrayList<>(new String(process.getInputStream().readAllBytes()).lines().toList());
        if (process.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", commandLine) + " failed: " + String.join("\n", lines));
        }
        return lines;
    }
}

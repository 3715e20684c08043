package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.trainyard.client.ApiException;
import io.trainyard.client.model.Job;
import io.trainyard.client.model.JobSubmission;
import io.trainyard.client.model.Membership;
import io.trainyard.client.model.NewProject;
import io.trainyard.testing.AgentProcess;
import io.trainyard.testing.Eventually;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * An editor of one project submits a trainer that tries to take over the server: to read the admin token, the
 * agents' tokens and the database password, to reach PostgreSQL without credentials, another project's job (its
 * folder, its TensorBoard), to signal the server, and to write outside its work folder. On the single-node
 * default (embedded PostgreSQL, the server's own agent) and on a remote agent, every try is refused, and the job
 * itself still runs to success; a GPU job still sees its GPUs.
 */
class TrainerIsolationTest {

    private static final Duration PATIENCE = Duration.ofMinutes(2);
    private static final Path RUNTIME_ENVIRONMENT = Path.of("").toAbsolutePath().getParent().resolve("runtime/.venv/bin");

    @TempDir
    Path dataDir;

    @Test
    void anEditorsTrainerReachesNoSecretNoOtherJobAndNotTheServer() throws Exception {
        try (RunningServer server = RunningServer.start(null, dataDir, "isolation-node",
                "--trainyard.local.trainer-path=" + RUNTIME_ENVIRONMENT,
                "--trainyard.tensorboard.executable=" + RUNTIME_ENVIRONMENT.resolve("tensorboard"))) {
            TrainyardClient admin = server.api();
            UUID otherJob = otherProjectsJobWithTensorBoard(admin);
            TrainyardClient editor = editorOf(admin, "mallory-project", "mallory");

            List<String> probes = escapeAttempt(editor, Map.of("data_dir", dataDir.toString(), "other_job", otherJob.toString(),
                    "server_pid", ProcessHandle.current().pid(), "agent_pid", ProcessHandle.current().pid(),
                    "postgres_port", postgresPort(server)));

            assertThat(probes).hasSize(8).allSatisfy(probe -> assertThat(probe).contains(": refused ("));
            assertThat(String.join("\n", probes))
                    .contains("probe postgres: refused (PermissionError: PostgreSQL asked for a password")
                    .contains("probe tensorboard: refused (PermissionError: no port answered");
            assertThat(dataDir.resolve("planted")).doesNotExist();
        }
    }

    @Test
    void aRemoteAgentsTokenNeverReachesItsTrainers() throws Exception {
        try (RunningServer server = RunningServer.start(null, dataDir.resolve("server"), "isolation-server",
                AgentProcess.SERVER_ARGUMENTS.toArray(String[]::new));
                AgentProcess agent = AgentProcess.start(server.api(), "remote-host", dataDir.resolve("agent"), 0,
                        "--trainer-path=" + RUNTIME_ENVIRONMENT)) {
            TrainyardClient editor = editorOf(server.api(), "mallory-project", "mallory");

            List<String> probes = escapeAttempt(editor, Map.of("data_dir", dataDir.resolve("agent").toString(),
                    "other_job", UUID.randomUUID().toString(), "server_pid", ProcessHandle.current().pid(),
                    "agent_pid", agent.pid(), "postgres_port", postgresPort(server)));

            assertThat(probes).filteredOn(probe -> probe.startsWith("probe agent-token:") || probe.startsWith("probe signal-server:"))
                    .hasSize(2).allSatisfy(probe -> assertThat(probe).contains(": refused ("));
        }
    }

    @Test
    void aGpuJobsTrainerStillSeesItsGpusAndRunsNvidiaSmi(@TempDir Path tools) throws Exception {
        // A stand-in nvidia-smi, outside the data folder (which trainers do not see), on the trainers' PATH.
        Path nvidiaSmi = tools.resolve("nvidia-smi");
        Files.writeString(nvidiaSmi, """
                #!/bin/sh
                echo "0, NVIDIA H100 80GB HBM3, 81559"
                echo "1, NVIDIA H100 80GB HBM3, 81559"
                """);
        Files.setPosixFilePermissions(nvidiaSmi, PosixFilePermissions.fromString("rwxr-xr-x"));
        try (RunningServer server = RunningServer.start(null, dataDir, "isolation-gpus",
                "--trainyard.local.nvidia-smi=" + nvidiaSmi, "--trainyard.local.trainer-path=" + tools)) {
            TrainyardClient api = server.api();
            UUID id = api.submit(JobBodies.job("sees_gpus", """
                    import os, subprocess
                    print("visible", os.environ["CUDA_VISIBLE_DEVICES"])
                    print(subprocess.run(["nvidia-smi"], capture_output=True, text=True, check=True).stdout.strip())
                    """).gpus(2)).getId();

            Job ended = api.awaitEnded(id, PATIENCE);

            assertThat(ended.getState()).as("%s %s", ended.getFailureMessage(), api.logTexts(id)).isEqualTo(Job.StateEnum.SUCCEEDED);
            assertThat(api.logTexts(id)).contains("visible 0,1", "1, NVIDIA H100 80GB HBM3, 81559");
        }
    }

    /** Runs the attacker's trainer in the editor's project; the lines its probes printed. */
    private static List<String> escapeAttempt(TrainyardClient editor, Map<String, Object> params) throws IOException {
        String program = "PARAMS = " + JsonMapper.builder().build().writeValueAsString(params) + "\n" + resource("trainer-escape.py");
        UUID id = editor.submit(JobBodies.job("escape_attempt", program).project("mallory-project")).getId();
        Job ended = editor.awaitEnded(id, PATIENCE);
        List<String> log = editor.logTexts(id);
        assertThat(ended.getState()).as("the attacker's trainer ran: %s %s", ended.getFailureMessage(), log).isEqualTo(Job.StateEnum.SUCCEEDED);
        return log.stream().filter(line -> line.startsWith("probe ")).toList();
    }

    /** A finished job of another project whose TensorBoard runs, opened by its owner. */
    private static UUID otherProjectsJobWithTensorBoard(TrainyardClient admin) throws ApiException {
        admin.projects().createProject(new NewProject().name("confidential"));
        JobSubmission body = JobBodies.job("confidential_job", """
                from torch.utils.tensorboard import SummaryWriter
                writer = SummaryWriter(log_dir="outputs/tensorboard")
                writer.add_scalar("loss", 0.5, 1)
                writer.close()
                """).project("confidential");
        JobBodies.writingTensorBoard(body);
        UUID id = admin.submit(body).getId();
        Job ended = admin.awaitEnded(id, PATIENCE);
        assertThat(ended.getState()).as("%s: %s", ended.getFailureMessage(), admin.logTexts(id)).isEqualTo(Job.StateEnum.SUCCEEDED);
        Eventually.await("the other job's TensorBoard answers its owner",
                () -> admin.raw().get("/jobs/" + id + "/tensorboard/data/environment").status() == 200, PATIENCE);
        return id;
    }

    private static TrainyardClient editorOf(TrainyardClient admin, String project, String user) throws ApiException {
        admin.projects().createProject(new NewProject().name(project));
        return admin.newUser(user, Map.of(project, Membership.RoleEnum.EDITOR));
    }

    private static int postgresPort(RunningServer server) {
        String url = ((HikariDataSource) server.bean(DataSource.class)).getJdbcUrl();
        return Integer.parseInt(url.replaceFirst("^jdbc:postgresql://[^:]+:(\\d+)/.*$", "$1"));
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = TrainerIsolationTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}

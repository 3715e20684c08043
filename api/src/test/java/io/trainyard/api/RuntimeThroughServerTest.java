package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.trainyard.client.model.Job;
import io.trainyard.client.model.JobSubmission;
import io.trainyard.testing.ServerExtension;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The training runtime run by the server as users run it: the node-classification example as it is (its
 * command is {@code python -m trainyard_runtime.train}), found through the agent's trainer path, with two
 * workers, which join one torch.distributed world (gloo on CPU) from the environment the server gives them.
 * Needs the runtime's virtual environment (`bash runtime/install.sh`, which the README's test command runs).
 */
class RuntimeThroughServerTest {

    private static final Path REPOSITORY = Path.of("").toAbsolutePath().getParent();
    private static final Path RUNTIME_ENVIRONMENT = REPOSITORY.resolve("runtime/.venv/bin");

    @RegisterExtension
    static final ServerExtension server = new ServerExtension("runtime-node", "--trainyard.local.cpu-slots=2",
            "--trainyard.local.trainer-path=" + RUNTIME_ENVIRONMENT);

    @Test
    void twoWorkersTrainTheNodeClassificationExampleTogether() throws Exception {
        assertThat(RUNTIME_ENVIRONMENT.resolve("python")).as("the runtime's virtualenv; run bash runtime/install.sh").exists();
        String task = Files.readString(REPOSITORY.resolve("examples/node-classification/task_config.yaml"));
        assertThat(task).contains("command: python -m trainyard_runtime.train");
        String resource = Files.readString(REPOSITORY.resolve("examples/node-classification/resource_config.yaml"))
                .replaceAll("numWorkers: \\d+", "numWorkers: 2");
        JobSubmission body = new JobSubmission().jobName("node_classification_ddp").taskConfig(task).resourceConfig(resource);
        TrainyardClient api = server.api();

        UUID id = api.submit(body).getId();
        Job job = api.awaitEnded(id, Duration.ofMinutes(4));

        List<String> lines = api.logs().getJobLogs(id, null, 10_000).getLines().stream()
                .map(line -> "[rank " + line.getRank() + "] " + line.getText()).toList();
        assertThat(job.getState()).as("job %s, log:%n%s", job, String.join("\n", lines)).isEqualTo(Job.StateEnum.SUCCEEDED);
        assertThat(job.getPlacement().getOnAgent().getCpuSlots()).isEqualTo(2);
        assertThat(lines).anyMatch(line -> line.startsWith("[rank 0]") && line.contains("2 process(es)"));
        assertThat(EvalMetrics.read(job).get("acc")).isGreaterThanOrEqualTo(0.9);
        assertThat(Path.of(URI.create(job.getOutputs().get("trainedModelUri")))).exists();
    }
}

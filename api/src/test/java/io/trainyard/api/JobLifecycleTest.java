package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.trainyard.client.ApiException;
import io.trainyard.client.model.Job;
import io.trainyard.client.model.JobEvent;
import io.trainyard.client.model.JobSubmission;
import io.trainyard.client.model.LaunchPlan;
import io.trainyard.client.model.LogLine;
import io.trainyard.client.model.LogPage;
import io.trainyard.testing.Eventually;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.ProcessTable;
import io.trainyard.testing.RawHttpClient;
import io.trainyard.testing.RawHttpClient.SseEvent;
import io.trainyard.testing.ServerExtension;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Jobs run as real processes on this host, their logs followed over real HTTP and SSE (the stream's wire format
 * over raw HTTP; everything else through the generated client).
 */
class JobLifecycleTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @RegisterExtension
    static final ServerExtension server = new ServerExtension("lifecycle-node");
    static TrainyardClient api;

    @BeforeAll
    static void useServer() {
        api = server.api();
    }

    @Test
    void logsArriveOverSseInOrderWithNothingMissing() {
        int count = 3_000;
        UUID id = api.submit(JobBodies.job("ordered_logs", JobBodies.printLines(count, 100))).getId();

        List<SseEvent> events = api.raw().follow("/jobs/" + id + "/logs/stream", null, Integer.MAX_VALUE);

        assertLinesInOrder(events.subList(0, events.size() - 1), 1, count);
        SseEvent end = events.getLast();
        assertThat(end.event()).isEqualTo("end");
        assertThat(RawHttpClient.JSON.readTree(end.data()).get("state").asString()).isEqualTo("SUCCEEDED");
    }

    @Test
    void aFollowerThatReconnectsWithLastEventIdMissesNothing() {
        int count = 3_000;
        UUID id = api.submit(JobBodies.job("reconnecting_follower", JobBodies.printLines(count, 50))).getId();

        List<SseEvent> first = api.raw().follow("/jobs/" + id + "/logs/stream", null, 1_000);
        List<SseEvent> rest = api.raw().follow("/jobs/" + id + "/logs/stream", first.getLast().id(), Integer.MAX_VALUE);

        List<SseEvent> all = new ArrayList<>(first);
        all.addAll(rest.subList(0, rest.size() - 1));
        assertLinesInOrder(all, 1, count);
        assertThat(rest.getLast().event()).isEqualTo("end");
    }

    @Test
    void theTrainerGetsGiglsArgumentsAndEnvironment() throws ApiException {
        String program = """
                import os, sys
                print("ARGS", " ".join(sys.argv[1:]))
                for name in ["GIGL_APPLIED_TASK_IDENTIFIER", "GIGL_COMPONENT", "GIGL_CPU_DOCKER_URI", "WORLD_SIZE", "RANK",
                             "LOCAL_WORLD_SIZE", "MASTER_ADDR"]:
                    print("ENV", name, os.environ[name])
                print("TASK", "should_run_glt_backend" in open(sys.argv[2].split("=", 1)[1][len("file://"):]).read())
                """;
        UUID id = api.submit(JobBodies.job("contract", program, 2)).getId();
        Job job = api.awaitEnded(id, WAIT);
        assertThat(job.getState()).isEqualTo(Job.StateEnum.SUCCEEDED);

        List<String> lines = texts(api.logs().getJobLogs(id, null, 100));
        assertThat(lines).filteredOn(line -> line.startsWith("ARGS")).hasSize(2).allSatisfy(line -> assertThat(line)
                .contains("--job_name=contract", "--task_config_uri=file://", "--resource_config_uri=file://", "--learning_rate=0.01")
                .doesNotContain("--use_cuda"));
        // GiGL's runtime variables (gigl/src/common/utils/gigl_env.py), its release image where none is named.
        assertThat(lines).contains("ENV GIGL_APPLIED_TASK_IDENTIFIER contract", "ENV GIGL_COMPONENT Trainer",
                "ENV GIGL_CPU_DOCKER_URI us-central1-docker.pkg.dev/external-snap-ci-github-gigl/public-gigl/src-cpu:0.0.9.dev20251005191521",
                "ENV WORLD_SIZE 2", "ENV RANK 0", "ENV RANK 1", "ENV LOCAL_WORLD_SIZE 2", "ENV MASTER_ADDR 127.0.0.1", "TASK True");
    }

    @Test
    void aFailingTrainerEndsFailedWithItsExitCode() throws ApiException {
        UUID id = api.submit(JobBodies.job("failing", "import sys\nprint('about to fail')\nsys.exit(3)")).getId();

        Job job = api.awaitEnded(id, WAIT);

        assertThat(job.getState()).isEqualTo(Job.StateEnum.FAILED);
        assertThat(job.getFailureCause()).isEqualTo(Job.FailureCauseEnum.USER_CODE);
        assertThat(job.getExitCode()).isEqualTo(3);
        assertThat(texts(api.logs().getJobLogs(id, null, null))).containsExactly("about to fail");
    }

    @Test
    void aCommandThatDoesNotExistIsALaunchErrorThatNamesTheTrainersPathAndHowToChangeIt() {
        JobSubmission body = JobBodies.job("missing_program", "pass");
        body.taskConfig(body.getTaskConfig().replaceFirst("command: '.*'", "command: no-such-trainer --flag"));

        Job job = api.awaitEnded(api.submit(body).getId(), WAIT);

        assertThat(job.getState()).isEqualTo(Job.StateEnum.FAILED);
        assertThat(job.getFailureCause()).isEqualTo(Job.FailureCauseEnum.LAUNCH_ERROR);
        assertThat(job.getFailureMessage()).contains("no-such-trainer")
                .contains("PATH=" + System.getenv("PATH")).contains("--trainer-path").contains("trainyard.local.trainer-path");
    }

    @Test
    void cancelStopsTheWholeProcessGroup() throws Exception {
        // The trainer forks a child; both must be gone after the cancel. Both are found by a number in their
        // command lines: in their sandbox's PID namespace they cannot tell their pids on this host.
        String program = """
                import subprocess, time
                child = subprocess.Popen(["sleep", "617.25"])
                print("STARTED", flush=True)
                time.sleep(617.25)
                """;
        UUID id = api.submit(JobBodies.job("sleeper", program)).getId();
        Eventually.await("the trainer started its child", () -> api.logTexts(id).contains("STARTED"), WAIT);
        List<Long> pids = ProcessTable.withCommandLineContaining("617.25");
        assertThat(pids).as("the trainer and its child").hasSizeGreaterThanOrEqualTo(2);

        assertThat(api.jobs().cancelJobWithHttpInfo(id).getStatusCode()).isEqualTo(202);
        Job job = api.awaitEnded(id, WAIT);

        assertThat(job.getState()).isEqualTo(Job.StateEnum.CANCELLED);
        for (long pid : pids) {
            Eventually.await("process " + pid + " exits", () -> !ProcessTable.isRunning(pid), Duration.ofSeconds(5));
        }
        assertThat(api.jobs().listJobEvents(id)).extracting(JobEvent::getTo).containsExactly(JobEvent.ToEnum.QUEUED,
                JobEvent.ToEnum.STARTING, JobEvent.ToEnum.RUNNING, JobEvent.ToEnum.CANCELLING, JobEvent.ToEnum.CANCELLED);
        assertThat(TrainyardClient.refusal(() -> api.jobs().cancelJob(id)).getCode()).isEqualTo(409);
    }

    @Test
    void aJobRunningPastItsTimeoutFails() {
        JobSubmission body = JobBodies.job("too_slow", "import time\ntime.sleep(600)").timeoutSeconds(1L);

        Job job = api.awaitEnded(api.submit(body).getId(), WAIT);

        assertThat(job.getState()).isEqualTo(Job.StateEnum.FAILED);
        assertThat(job.getFailureCause()).isEqualTo(Job.FailureCauseEnum.TIMEOUT);
    }

    @Test
    void retryRunsANewAttemptOfTheSameJobAndDeletesOldOutputsFirst() throws ApiException {
        // The trainer reports whether an output from an earlier attempt is still there, then writes one.
        String program = """
                import os
                print("OLD OUTPUT PRESENT" if os.path.exists("outputs/model.pt") else "NO OLD OUTPUT")
                os.makedirs("outputs", exist_ok=True)
                open("outputs/model.pt", "w").write("weights")
                """;
        UUID id = api.submit(JobBodies.job("retried", program)).getId();
        Job first = api.awaitEnded(id, WAIT);
        assertThat(first.getState()).isEqualTo(Job.StateEnum.SUCCEEDED);
        Path model = Path.of(java.net.URI.create(first.getOutputs().get("trainedModelUri")));
        assertThat(model).exists();

        Job retried = api.jobs().retryJob(id);
        assertThat(retried.getAttempt()).isEqualTo(2);
        Job second = api.awaitEnded(id, WAIT);

        assertThat(second.getState()).isEqualTo(Job.StateEnum.SUCCEEDED);
        List<LogLine> logs = api.logs().getJobLogs(id, null, null).getLines();
        assertThat(logs).hasSize(2);
        assertThat(logs.get(0).getSeq()).isEqualTo(1);
        assertThat(logs.get(1).getSeq()).isEqualTo(2);
        assertThat(logs.get(1).getAttempt()).isEqualTo(2);
        assertThat(logs.get(1).getText()).isEqualTo("NO OLD OUTPUT");
    }

    @Test
    void aJobThatInsistsOnGpusTheHostCannotOfferFailsAtOnceForNoCapacity() {
        JobSubmission body = JobBodies.job("needs_gpus", "pass", 2).requireGpus(true);

        Job job = api.awaitEnded(api.submit(body).getId(), Duration.ofSeconds(5));

        assertThat(job.getState()).isEqualTo(Job.StateEnum.FAILED);
        assertThat(job.getFailureCause()).isEqualTo(Job.FailureCauseEnum.NO_CAPACITY);
    }

    @Test
    void aDryRunAnswersTheLaunchPlanAndStoresNothing() throws ApiException {
        int before = api.jobs().listJobs(null, null, null, null, null, 500).getJobs().size();

        LaunchPlan plan = api.jobs().dryRunJob(JobBodies.job("planned", "pass", 2));

        assertThat(plan.getBackend()).isEqualTo("local");
        assertThat(plan.getWorkers()).hasSize(2);
        assertThat(plan.getWorkers().get(1).getEnvironment().get("RANK")).isEqualTo("1");
        assertThat(plan.getWorkers().get(0).getArgv().get(0)).isEqualTo("python3");
        assertThat(plan.getPlacement().get("device")).isEqualTo("cpu");
        assertThat(api.jobs().listJobs(null, null, null, null, null, 500).getJobs().size()).isEqualTo(before);
    }

    private static List<String> texts(LogPage page) {
        return page.getLines().stream().map(LogLine::getText).toList();
    }

    private static void assertLinesInOrder(List<SseEvent> events, int first, int last) {
        assertThat(events).hasSize(last - first + 1);
        for (int i = 0; i < events.size(); i++) {
            SseEvent event = events.get(i);
            assertThat(event.event()).isEqualTo("log");
            assertThat(event.id()).isEqualTo(Long.toString(first + i));
            assertThat(RawHttpClient.JSON.readTree(event.data()).get("text").asString()).isEqualTo("line " + (first + i));
        }
    }
}

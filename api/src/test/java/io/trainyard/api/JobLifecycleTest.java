package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.trainyard.testing.ApiClient;
import io.trainyard.testing.ApiClient.SseEvent;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.ServerExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/** Jobs run as real processes on this host, their logs followed over real HTTP and SSE. */
class JobLifecycleTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @RegisterExtension
    static final ServerExtension server = new ServerExtension("lifecycle-node");
    static ApiClient api;

    @BeforeAll
    static void useServer() {
        api = server.api();
    }

    @Test
    void logsArriveOverSseInOrderWithNothingMissing() {
        int count = 3_000;
        String id = api.submit(JobBodies.job("ordered_logs", JobBodies.printLines(count, 100))).body().get("id").asString();

        List<SseEvent> events = api.follow("/jobs/" + id + "/logs/stream", null, Integer.MAX_VALUE);

        assertLinesInOrder(events.subList(0, events.size() - 1), 1, count);
        SseEvent end = events.getLast();
        assertThat(end.event()).isEqualTo("end");
        assertThat(ApiClient.JSON.readTree(end.data()).get("state").asString()).isEqualTo("SUCCEEDED");
    }

    @Test
    void aFollowerThatReconnectsWithLastEventIdMissesNothing() {
        int count = 3_000;
        String id = api.submit(JobBodies.job("reconnecting_follower", JobBodies.printLines(count, 50))).body().get("id").asString();

        List<SseEvent> first = api.follow("/jobs/" + id + "/logs/stream", null, 1_000);
        List<SseEvent> rest = api.follow("/jobs/" + id + "/logs/stream", first.getLast().id(), Integer.MAX_VALUE);

        List<SseEvent> all = new ArrayList<>(first);
        all.addAll(rest.subList(0, rest.size() - 1));
        assertLinesInOrder(all, 1, count);
        assertThat(rest.getLast().event()).isEqualTo("end");
    }

    @Test
    void theTrainerGetsGiglsArgumentsAndEnvironment() {
        String program = """
                import os, sys
                print("ARGS", " ".join(sys.argv[1:]))
                for name in ["GIGL_APPLIED_TASK_IDENTIFIER", "GIGL_COMPONENT", "GIGL_CPU_DOCKER_URI", "WORLD_SIZE", "RANK",
                             "LOCAL_WORLD_SIZE", "MASTER_ADDR"]:
                    print("ENV", name, os.environ[name])
                print("TASK", "should_run_glt_backend" in open(sys.argv[2].split("=", 1)[1][len("file://"):]).read())
                """;
        String id = api.submit(JobBodies.job("contract", program, 2)).body().get("id").asString();
        JsonNode job = api.awaitEnded(id, WAIT);
        assertThat(job.get("state").asString()).isEqualTo("SUCCEEDED");

        List<String> lines = texts(api.get("/jobs/" + id + "/logs?limit=100").body());
        assertThat(lines).filteredOn(line -> line.startsWith("ARGS")).hasSize(2).allSatisfy(line -> assertThat(line)
                .contains("--job_name=contract", "--task_config_uri=file://", "--resource_config_uri=file://", "--learning_rate=0.01")
                .doesNotContain("--use_cuda"));
        // GiGL's runtime variables (gigl/src/common/utils/gigl_env.py), its release image where none is named.
        assertThat(lines).contains("ENV GIGL_APPLIED_TASK_IDENTIFIER contract", "ENV GIGL_COMPONENT Trainer",
                "ENV GIGL_CPU_DOCKER_URI us-central1-docker.pkg.dev/external-snap-ci-github-gigl/public-gigl/src-cpu:0.0.9.dev20251005191521",
                "ENV WORLD_SIZE 2", "ENV RANK 0", "ENV RANK 1", "ENV LOCAL_WORLD_SIZE 2", "ENV MASTER_ADDR 127.0.0.1", "TASK True");
    }

    @Test
    void aFailingTrainerEndsFailedWithItsExitCode() {
        String id = api.submit(JobBodies.job("failing", "import sys\nprint('about to fail')\nsys.exit(3)")).body().get("id").asString();

        JsonNode job = api.awaitEnded(id, WAIT);

        assertThat(job.get("state").asString()).isEqualTo("FAILED");
        assertThat(job.get("failureCause").asString()).isEqualTo("USER_CODE");
        assertThat(job.get("exitCode").asInt()).isEqualTo(3);
        assertThat(texts(api.get("/jobs/" + id + "/logs").body())).containsExactly("about to fail");
    }

    @Test
    void aCommandThatDoesNotExistIsALaunchErrorThatNamesTheTrainersPathAndHowToChangeIt() {
        Map<String, Object> body = JobBodies.job("missing_program", "pass");
        body.put("taskConfig", ((String) body.get("taskConfig")).replaceFirst("command: '.*'", "command: no-such-trainer --flag"));

        JsonNode job = api.awaitEnded(api.submit(body).body().get("id").asString(), WAIT);

        assertThat(job.get("state").asString()).isEqualTo("FAILED");
        assertThat(job.get("failureCause").asString()).isEqualTo("LAUNCH_ERROR");
        assertThat(job.get("failureMessage").asString()).contains("no-such-trainer")
                .contains("PATH=" + System.getenv("PATH")).contains("--trainer-path").contains("trainyard.local.trainer-path");
    }

    @Test
    void cancelStopsTheWholeProcessGroup() throws Exception {
        // The trainer forks a child; both must be gone after the cancel.
        String program = """
                import subprocess, os, time
                child = subprocess.Popen(["sleep", "600"])
                print("PIDS", os.getpid(), child.pid, flush=True)
                time.sleep(600)
                """;
        String id = api.submit(JobBodies.job("sleeper", program)).body().get("id").asString();
        List<Long> pids = awaitPids(id);

        assertThat(api.post("/jobs/" + id + "/cancel", Map.of()).status()).isEqualTo(202);
        JsonNode job = api.awaitEnded(id, WAIT);

        assertThat(job.get("state").asString()).isEqualTo("CANCELLED");
        for (long pid : pids) {
            assertThat(isRunning(pid)).as("process %d still running", pid).isFalse();
        }
        List<String> transitions = new ArrayList<>();
        api.get("/jobs/" + id + "/events").body().forEach(event -> transitions.add(event.get("to").asString()));
        assertThat(transitions).containsExactly("QUEUED", "STARTING", "RUNNING", "CANCELLING", "CANCELLED");
        assertThat(api.post("/jobs/" + id + "/cancel", Map.of()).status()).isEqualTo(409);
    }

    @Test
    void aJobRunningPastItsTimeoutFails() {
        Map<String, Object> body = JobBodies.job("too_slow", "import time\ntime.sleep(600)");
        body.put("timeoutSeconds", 1);

        JsonNode job = api.awaitEnded(api.submit(body).body().get("id").asString(), WAIT);

        assertThat(job.get("state").asString()).isEqualTo("FAILED");
        assertThat(job.get("failureCause").asString()).isEqualTo("TIMEOUT");
    }

    @Test
    void retryRunsANewAttemptOfTheSameJobAndDeletesOldOutputsFirst() {
        // The trainer reports whether an output from an earlier attempt is still there, then writes one.
        String program = """
                import os
                print("OLD OUTPUT PRESENT" if os.path.exists("outputs/model.pt") else "NO OLD OUTPUT")
                os.makedirs("outputs", exist_ok=True)
                open("outputs/model.pt", "w").write("weights")
                """;
        String id = api.submit(JobBodies.job("retried", program)).body().get("id").asString();
        JsonNode first = api.awaitEnded(id, WAIT);
        assertThat(first.get("state").asString()).isEqualTo("SUCCEEDED");
        Path model = Path.of(java.net.URI.create(first.get("outputs").get("trainedModelUri").asString()));
        assertThat(model).exists();

        JsonNode retried = api.post("/jobs/" + id + "/retry", Map.of()).body();
        assertThat(retried.get("attempt").asInt()).isEqualTo(2);
        JsonNode second = api.awaitEnded(id, WAIT);

        assertThat(second.get("state").asString()).isEqualTo("SUCCEEDED");
        JsonNode logs = api.get("/jobs/" + id + "/logs").body().get("lines");
        assertThat(logs).hasSize(2);
        assertThat(logs.get(0).get("seq").asLong()).isEqualTo(1);
        assertThat(logs.get(1).get("seq").asLong()).isEqualTo(2);
        assertThat(logs.get(1).get("attempt").asInt()).isEqualTo(2);
        assertThat(logs.get(1).get("text").asString()).isEqualTo("NO OLD OUTPUT");
    }

    @Test
    void aJobThatInsistsOnGpusTheHostCannotOfferFailsAtOnceForNoCapacity() {
        Map<String, Object> body = JobBodies.job("needs_gpus", "pass", 2);
        body.put("requireGpus", true);

        JsonNode job = api.awaitEnded(api.submit(body).body().get("id").asString(), Duration.ofSeconds(5));

        assertThat(job.get("state").asString()).isEqualTo("FAILED");
        assertThat(job.get("failureCause").asString()).isEqualTo("NO_CAPACITY");
    }

    @Test
    void aDryRunAnswersTheLaunchPlanAndStoresNothing() {
        int before = api.get("/jobs?limit=500").body().get("jobs").size();

        ApiClient.Response plan = api.post("/jobs/dry-run", JobBodies.job("planned", "pass", 2));

        assertThat(plan.status()).isEqualTo(200);
        assertThat(plan.body().get("backend").asString()).isEqualTo("local");
        assertThat(plan.body().get("workers")).hasSize(2);
        assertThat(plan.body().get("workers").get(1).get("environment").get("RANK").asString()).isEqualTo("1");
        assertThat(plan.body().get("workers").get(0).get("argv").get(0).asString()).isEqualTo("python3");
        assertThat(plan.body().get("placement").get("device").asString()).isEqualTo("cpu");
        assertThat(api.get("/jobs?limit=500").body().get("jobs").size()).isEqualTo(before);
    }

    private List<Long> awaitPids(String id) throws InterruptedException {
        for (int i = 0; i < 600; i++) {
            for (String line : texts(api.get("/jobs/" + id + "/logs").body())) {
                if (line.startsWith("PIDS")) {
                    String[] parts = line.split(" ");
                    return List.of(Long.parseLong(parts[1]), Long.parseLong(parts[2]));
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the trainer never printed its pids: " + api.job(id) + " " + api.get("/jobs/" + id + "/logs").body());
    }

    /** Whether the process exists and is not a zombie awaiting its reaper. */
    private static boolean isRunning(long pid) throws Exception {
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        long deadline = System.currentTimeMillis() + 5_000;
        while (System.currentTimeMillis() < deadline) {
            if (!Files.exists(stat)) {
                return false;
            }
            String fields = Files.readString(stat);
            if (fields.substring(fields.lastIndexOf(')') + 2).startsWith("Z")) {
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }

    private static List<String> texts(JsonNode page) {
        List<String> texts = new ArrayList<>();
        page.get("lines").forEach(line -> texts.add(line.get("text").asString()));
        return texts;
    }

    private static void assertLinesInOrder(List<SseEvent> events, int first, int last) {
        assertThat(events).hasSize(last - first + 1);
        for (int i = 0; i < events.size(); i++) {
            SseEvent event = events.get(i);
            assertThat(event.event()).isEqualTo("log");
            assertThat(event.id()).isEqualTo(Long.toString(first + i));
            assertThat(ApiClient.JSON.readTree(event.data()).get("text").asString()).isEqualTo("line " + (first + i));
        }
    }
}

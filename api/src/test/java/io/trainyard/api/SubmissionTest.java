package io.trainyard.api;

import static io.trainyard.testing.TrainyardClient.refusal;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.trainyard.client.ApiException;
import io.trainyard.client.ApiResponse;
import io.trainyard.client.api.JobsApi;
import io.trainyard.client.model.FieldError;
import io.trainyard.client.model.Job;
import io.trainyard.client.model.JobPage;
import io.trainyard.client.model.JobSubmission;
import io.trainyard.client.model.Problem;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RawHttpClient;
import io.trainyard.testing.ServerExtension;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/** Bad input gets a precise answer and stores nothing; good input is stored once and listed. */
class SubmissionTest {

    @RegisterExtension
    static final ServerExtension server = new ServerExtension("submission-node");
    static TrainyardClient api;
    static JobsApi jobs;

    @BeforeAll
    static void useServer() {
        api = server.api();
        jobs = api.jobs();
    }

    @Test
    void invalidSubmissionsGetPreciseErrorsAndStoreNothing() throws ApiException {
        int storedBefore = stored();
        JobSubmission badYaml = JobBodies.job("bad_yaml", "pass").taskConfig("trainerConfig:\n  command: [unclosed\n");
        assertFieldError(refused(badYaml, 422), "taskConfig", "line 3");

        JobSubmission missing = JobBodies.job("x", "pass").jobName(null).taskConfig("""
                taskMetadata:
                  nodeBasedTaskMetadata: {}
                featureFlags:
                  should_run_glt_backend: "True"
                sharedConfig:
                  trainedModelMetadata: {}
                """);
        Problem problem = refused(missing, 422);
        assertFieldError(problem, "jobName", "is required");
        assertThat(problem.getErrors()).extracting(FieldError::getField).contains("taskConfig.trainerConfig.command");
        assertThat(problem.getErrors()).extracting(FieldError::getMessage)
                .anyMatch(message -> message.contains("is required when featureFlags.should_run_glt_backend is True"));

        JobSubmission wrongTypes = JobBodies.job("wrong_types", "pass").resourceConfig(JobBodies.RESOURCE_CONFIG.formatted(1)
                .replace("num_workers: 1", "num_workers: many")
                .replace("temp_assets_bucket: gs://test-temp", "temp_assets_bucket: /not/a/bucket"));
        problem = refused(wrongTypes, 422);
        assertFieldError(problem, "resourceConfig.trainerResourceConfig.localTrainerConfig.numWorkers", "must be an integer");
        assertThat(problem.getErrors()).extracting(FieldError::getField)
                .contains("resourceConfig.sharedResourceConfig.commonComputeConfig.tempAssetsBucket");

        assertFieldError(refused(JobBodies.job("too_many_gpus", "pass").gpus(800), 422), "gpus", "between 1 and 64");
        assertFieldError(refused(JobBodies.job("no_nodes", "pass").nodes(0), 422), "nodes", "between 1 and 256");
        assertFieldError(refused(JobBodies.job("uneven_hosts", "pass", 3).nodes(2), 422), "nodes", "3 workers do not divide evenly over 2 hosts");

        // A string where the contract says integer: only raw HTTP can send it.
        Map<String, Object> wrongJsonType = JobBodies.asJson(JobBodies.job("wrong_json", "pass"));
        wrongJsonType.put("priority", "urgent");
        assertFieldError(refused(api.raw().post("/jobs", wrongJsonType), 400), "priority", "must be an integer");

        JobSubmission unknownKind = JobBodies.job("unknown_kind", "pass").resourceConfig(JobBodies.RESOURCE_CONFIG.formatted(1)
                .replace("local_trainer_config:", "quantum_trainer_config:"));
        assertFieldError(refused(unknownKind, 422), "resourceConfig.trainerResourceConfig.quantum_trainer_config",
                "is not a field of TrainerResourceConfig");

        StringBuilder bomb = new StringBuilder("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        for (char level = 'b'; level <= 'j'; level++) {
            char previous = (char) (level - 1);
            bomb.append(level).append(": &").append(level).append(" [")
                    .append(String.join(",", Collections.nCopies(9, "*" + previous))).append("]\n");
        }
        assertFieldError(refused(JobBodies.job("alias_bomb", "pass").taskConfig(bomb.toString()), 422), "taskConfig", "aliases");

        JobSubmission huge = JobBodies.job("huge", "pass").taskConfig("a".repeat(10 * 1024 * 1024));
        ApiException tooLarge = refusal(() -> jobs.submitJob(huge, null));
        assertThat(tooLarge.getCode()).isEqualTo(413);
        assertThat(tooLarge.getResponseHeaders().firstValue("Content-Type")).hasValueSatisfying(type ->
                assertThat(type).contains("application/problem+json"));

        assertFieldError(refused(JobBodies.job("bad_image", "pass").cudaDockerUri("my image; rm -rf /"), 422),
                "cudaDockerUri", "container image reference");

        JobSubmission gcs = JobBodies.job("gcs", "pass").taskConfig(null).taskConfigUri("gs://bucket/frozen_task_config.yaml");
        assertFieldError(refused(gcs, 422), "taskConfigUri", "Vertex AI");

        assertThat(stored()).isEqualTo(storedBefore);
    }

    // gigl/src/validation_check/libs/name_checks.py (check_if_kfp_pipeline_job_name_valid); and every key GiGL's
    // protobuf parser refuses is refused with its path, together with every other violation.
    @Test
    void giglsJobNameRuleAndUnknownKeysAreCheckedAtSubmission() throws ApiException {
        for (String name : List.of("Cora", "cora-link", "cora_", "_cora", "9cora", "a".repeat(52))) {
            assertFieldError(refused(JobBodies.job(name, "pass"), 422), "jobName", "GiGL's job-name rule");
        }
        assertThat(jobs.dryRunJob(JobBodies.job("a" + "b1_".repeat(16) + "c", "pass")).getBackend()).isEqualTo("local");

        JobSubmission typos = JobBodies.job("typos", "pass");
        typos.taskConfig(typos.getTaskConfig().replace("trainerArgs:", "trainerArguments:"))
                .resourceConfig(JobBodies.RESOURCE_CONFIG.formatted(1).replace("num_workers:", "workers:"));
        Problem problem = refused(typos, 422);
        assertFieldError(problem, "taskConfig.trainerConfig.trainerArguments", "is not a field of GbmlConfig.TrainerConfig");
        assertFieldError(problem, "resourceConfig.trainerResourceConfig.localTrainerConfig.workers", "is not a field of LocalResourceConfig");
        assertFieldError(problem, "resourceConfig.trainerResourceConfig.localTrainerConfig.numWorkers", "is required");
    }

    @Test
    void configsAreReadFromFileUrisInSnakeOrCamelCase() throws Exception {
        Path task = server.configRoot().resolve("task.yaml");
        Path resource = server.configRoot().resolve("resource.yaml");
        Files.writeString(task, JobBodies.taskConfig("print('from a file')", "outputs/model.pt"));
        Files.writeString(resource, JobBodies.RESOURCE_CONFIG.formatted(1));
        JobSubmission body = new JobSubmission().jobName("from_files").taskConfigUri(task.toUri().toString())
                .resourceConfigUri(resource.toString());

        Job job = api.submit(body);

        assertThat(job.getTaskConfigSource()).isEqualTo(task.toUri().toString());
        assertThat(api.awaitEnded(job.getId(), Duration.ofSeconds(60)).getState()).isEqualTo(Job.StateEnum.SUCCEEDED);
    }

    @Test
    void theSameIdempotencyKeyReturnsTheSameJobAndADifferentBodyConflicts() throws ApiException {
        JobSubmission body = JobBodies.job("idempotent", "pass");
        ApiResponse<Job> first = jobs.submitJobWithHttpInfo(body, "key-1");
        ApiResponse<Job> again = jobs.submitJobWithHttpInfo(body, "key-1");
        ApiException different = refusal(() -> jobs.submitJob(body.priority(5), "key-1"));

        assertThat(first.getStatusCode()).isEqualTo(201);
        assertThat(first.getHeaders().get("location")).containsExactly("/jobs/" + first.getData().getId());
        assertThat(again.getStatusCode()).isEqualTo(200);
        assertThat(again.getData().getId()).isEqualTo(first.getData().getId());
        assertThat(different.getCode()).isEqualTo(409);
        assertThat(jobs.listJobs(null, "idempotent", null, null, null, null).getJobs()).hasSize(1);
    }

    @Test
    void listingPagesNewestFirstWithACursorAndFilters() throws ApiException {
        List<UUID> submitted = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            JobSubmission body = JobBodies.job("paged_" + i, "pass").labels(Map.of("team", i % 2 == 0 ? "even" : "odd"));
            submitted.add(api.submit(body).getId());
        }
        List<UUID> listed = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            JobPage page = jobs.listJobs(null, "paged_", null, null, cursor, 3);
            page.getJobs().forEach(job -> listed.add(job.getId()));
            cursor = page.getNextCursor();
            pages++;
        } while (cursor != null);

        assertThat(pages).isEqualTo(3);
        assertThat(listed).containsExactlyElementsOf(submitted.reversed());
        assertThat(jobs.listJobs(null, "paged_", List.of("team=even"), null, null, null).getJobs()).extracting(Job::getJobName)
                .containsExactlyInAnyOrder("paged_0", "paged_2", "paged_4", "paged_6");
        assertThat(refusal(() -> jobs.listJobs(List.of("BOGUS"), null, null, null, null, null)).getCode()).isEqualTo(400);
        assertThat(refusal(() -> jobs.listJobs(null, null, null, null, "garbage", null)).getCode()).isEqualTo(422);
        assertThat(refusal(() -> jobs.getJob(UUID.randomUUID())).getCode()).isEqualTo(404);
    }

    @Test
    void theOpenApiDocumentAndMetricsAreServed() {
        RawHttpClient http = api.raw();
        JsonNode spec = http.get("/v3/api-docs").body();
        assertThat(spec.get("paths").has("/jobs")).isTrue();
        assertThat(spec.get("paths").has("/jobs/{id}/logs/stream")).isTrue();
        assertThat(spec.get("paths").has("/jobs/{id}/retry")).isTrue();

        api.awaitEnded(api.submit(JobBodies.job("metered", "print('counted')")).getId(), Duration.ofSeconds(60));
        String metrics = http.get("/actuator/prometheus").raw().body();
        assertThat(metrics).contains("trainyard_jobs{", "state=\"SUCCEEDED\"", "trainyard_jobs_queue_wait_seconds",
                "trainyard_jobs_dispatch_latency_seconds", "trainyard_logs_lines_ingested_total");
        assertThat(http.get("/actuator/health").body().get("status").asString()).isEqualTo("UP");
    }

    /** The query parameter the contract no longer has: only raw HTTP can send it. */
    @Test
    void theOldDryRunParameterIsRefusedAndStoresNothing() throws ApiException {
        int storedBefore = stored();
        RawHttpClient.Response response = api.raw().post("/jobs?dryRun=true", JobBodies.asJson(JobBodies.job("old_dry_run", "pass")));
        assertFieldError(refused(response, 422), "dryRun", "/jobs/dry-run");
        assertThat(stored()).isEqualTo(storedBefore);
    }

    /** Bodies the typed client cannot send: raw HTTP. */
    @Test
    void bodiesOfTheWrongTypeAreRefusedInTheApisWordsNotJacksons() {
        Map<String, Object> body = JobBodies.asJson(JobBodies.job("wrong_type", "pass"));
        body.put("priority", 1.5);
        body.put("requireGpus", 0);
        RawHttpClient.Response response = api.raw().post("/jobs", body);
        assertThat(refused(response, 400).getErrors().getFirst().getField()).isIn("priority", "requireGpus");
        assertThat(response.body().toString()).doesNotContain("Jackson", "DeserializationFeature", "tools.jackson", "java.lang");

        RawHttpClient.Response malformed = api.raw().postRaw("/jobs", "{\"jobName\": ");
        assertFieldError(refused(malformed, 400), "body", "is not valid JSON");
    }

    private static int stored() throws ApiException {
        return jobs.listJobs(null, null, null, null, null, 500).getJobs().size();
    }

    /** The problem detail a submission is refused with, after checking its status and media type. */
    private static Problem refused(JobSubmission submission, int status) {
        ApiException error = refusal(() -> jobs.submitJob(submission, null));
        return problem(status, error.getCode(), error.getResponseHeaders().firstValue("Content-Type").orElse(null),
                error.getResponseBody());
    }

    private static Problem refused(RawHttpClient.Response response, int status) {
        return problem(status, response.status(), response.header("Content-Type"), response.raw().body());
    }

    private static Problem problem(int expectedStatus, int status, String contentType, String body) {
        assertThat(status).as("status of %s", body).isEqualTo(expectedStatus);
        assertThat(contentType).contains("application/problem+json");
        return TrainyardClient.problem(body);
    }

    private static void assertFieldError(Problem problem, String field, String messagePart) {
        assertThat(problem.getErrors()).as("errors of %s", problem).anySatisfy(error -> {
            assertThat(error.getField()).isEqualTo(field);
            assertThat(error.getMessage()).contains(messagePart);
        });
    }
}

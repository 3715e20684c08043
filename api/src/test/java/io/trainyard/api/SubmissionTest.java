package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.trainyard.testing.ApiClient;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.ServerExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/** Bad input gets a precise answer and stores nothing; good input is stored once and listed. */
class SubmissionTest {

    @RegisterExtension
    static final ServerExtension server = new ServerExtension("submission-node");
    static ApiClient api;

    @BeforeAll
    static void useServer() {
        api = server.api();
    }

    @Test
    void invalidSubmissionsGetPreciseErrorsAndStoreNothing() {
        int storedBefore = api.get("/jobs?limit=500").body().get("jobs").size();
        Map<String, Object> badYaml = JobBodies.job("bad_yaml", "pass");
        badYaml.put("taskConfig", "trainerConfig:\n  command: [unclosed\n");
        assertProblem(api.post("/jobs", badYaml), 422, "taskConfig", "line 3");

        Map<String, Object> missing = JobBodies.job("x", "pass");
        missing.remove("jobName");
        missing.put("taskConfig", """
                taskMetadata:
                  nodeBasedTaskMetadata: {}
                featureFlags:
                  should_run_glt_backend: "True"
                sharedConfig:
                  trainedModelMetadata: {}
                """);
        ApiClient.Response response = api.post("/jobs", missing);
        assertProblem(response, 422, "jobName", "is required");
        assertThat(fields(response)).contains("taskConfig.trainerConfig.command");
        assertThat(messages(response)).anyMatch(message -> message.contains("is required when featureFlags.should_run_glt_backend is True"));

        Map<String, Object> wrongTypes = JobBodies.job("wrong_types", "pass");
        wrongTypes.put("resourceConfig", JobBodies.RESOURCE_CONFIG.formatted(1).replace("num_workers: 1", "num_workers: many")
                .replace("temp_assets_bucket: gs://test-temp", "temp_assets_bucket: /not/a/bucket"));
        response = api.post("/jobs", wrongTypes);
        assertProblem(response, 422, "resourceConfig.trainerResourceConfig.localTrainerConfig.numWorkers", "must be an integer");
        assertThat(fields(response)).contains("resourceConfig.sharedResourceConfig.commonComputeConfig.tempAssetsBucket");

        Map<String, Object> tooManyGpus = JobBodies.job("too_many_gpus", "pass");
        tooManyGpus.put("gpus", 800);
        assertProblem(api.post("/jobs", tooManyGpus), 422, "gpus", "between 1 and 64");

        Map<String, Object> wrongJsonType = JobBodies.job("wrong_json", "pass");
        wrongJsonType.put("priority", "urgent");
        assertProblem(api.post("/jobs", wrongJsonType), 400, "priority", "must be an integer");

        Map<String, Object> unknownKind = JobBodies.job("unknown_kind", "pass");
        unknownKind.put("resourceConfig", JobBodies.RESOURCE_CONFIG.formatted(1).replace("local_trainer_config:", "quantum_trainer_config:"));
        assertProblem(api.post("/jobs", unknownKind), 422, "resourceConfig.trainerResourceConfig.quantum_trainer_config",
                "is not a field of TrainerResourceConfig");

        Map<String, Object> aliasBomb = JobBodies.job("alias_bomb", "pass");
        StringBuilder bomb = new StringBuilder("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        for (char level = 'b'; level <= 'j'; level++) {
            char previous = (char) (level - 1);
            bomb.append(level).append(": &").append(level).append(" [")
                    .append(String.join(",", java.util.Collections.nCopies(9, "*" + previous))).append("]\n");
        }
        aliasBomb.put("taskConfig", bomb.toString());
        assertProblem(api.post("/jobs", aliasBomb), 422, "taskConfig", "aliases");

        Map<String, Object> huge = JobBodies.job("huge", "pass");
        huge.put("taskConfig", "a".repeat(10 * 1024 * 1024));
        ApiClient.Response tooLarge = api.post("/jobs", huge);
        assertThat(tooLarge.status()).isEqualTo(413);
        assertThat(tooLarge.header("Content-Type")).contains("application/problem+json");

        Map<String, Object> badImage = JobBodies.job("bad_image", "pass");
        badImage.put("cudaDockerUri", "my image; rm -rf /");
        assertProblem(api.post("/jobs", badImage), 422, "cudaDockerUri", "container image reference");

        Map<String, Object> gcs = JobBodies.job("gcs", "pass");
        gcs.remove("taskConfig");
        gcs.put("taskConfigUri", "gs://bucket/frozen_task_config.yaml");
        assertProblem(api.post("/jobs", gcs), 422, "taskConfigUri", "Vertex AI");

        assertThat(api.get("/jobs?limit=500").body().get("jobs")).hasSize(storedBefore);
    }

    // gigl/src/validation_check/libs/name_checks.py (check_if_kfp_pipeline_job_name_valid); and every key GiGL's
    // protobuf parser refuses is refused with its path, together with every other violation.
    @Test
    void giglsJobNameRuleAndUnknownKeysAreCheckedAtSubmission() {
        for (String name : List.of("Cora", "cora-link", "cora_", "_cora", "9cora", "a".repeat(52))) {
            assertProblem(api.post("/jobs", JobBodies.job(name, "pass")), 422, "jobName", "GiGL's job-name rule");
        }
        assertThat(api.post("/jobs/dry-run", JobBodies.job("a" + "b1_".repeat(16) + "c", "pass")).status()).isEqualTo(200);

        Map<String, Object> typos = JobBodies.job("typos", "pass");
        typos.put("taskConfig", ((String) typos.get("taskConfig")).replace("trainerArgs:", "trainerArguments:"));
        typos.put("resourceConfig", JobBodies.RESOURCE_CONFIG.formatted(1).replace("num_workers:", "workers:"));
        ApiClient.Response response = api.post("/jobs", typos);
        assertProblem(response, 422, "taskConfig.trainerConfig.trainerArguments", "is not a field of GbmlConfig.TrainerConfig");
        assertProblem(response, 422, "resourceConfig.trainerResourceConfig.localTrainerConfig.workers", "is not a field of LocalResourceConfig");
        assertProblem(response, 422, "resourceConfig.trainerResourceConfig.localTrainerConfig.numWorkers", "is required");
    }

    @Test
    void configsAreReadFromFileUrisInSnakeOrCamelCase() throws Exception {
        Path task = server.configRoot().resolve("task.yaml");
        Path resource = server.configRoot().resolve("resource.yaml");
        java.nio.file.Files.writeString(task, JobBodies.taskConfig("print('from a file')", "outputs/model.pt"));
        java.nio.file.Files.writeString(resource, JobBodies.RESOURCE_CONFIG.formatted(1));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("jobName", "from_files");
        body.put("taskConfigUri", task.toUri().toString());
        body.put("resourceConfigUri", resource.toString());

        JsonNode job = api.submit(body).body();

        assertThat(job.get("taskConfigSource").asString()).isEqualTo(task.toUri().toString());
        assertThat(api.awaitEnded(job.get("id").asString(), java.time.Duration.ofSeconds(60)).get("state").asString()).isEqualTo("SUCCEEDED");
    }

    @Test
    void theSameIdempotencyKeyReturnsTheSameJobAndADifferentBodyConflicts() {
        Map<String, Object> body = JobBodies.job("idempotent", "pass");
        ApiClient.Response first = api.post("/jobs", body, "Idempotency-Key", "key-1");
        ApiClient.Response again = api.post("/jobs", body, "Idempotency-Key", "key-1");
        body.put("priority", 5);
        ApiClient.Response different = api.post("/jobs", body, "Idempotency-Key", "key-1");

        assertThat(first.status()).isEqualTo(201);
        assertThat(first.header("Location")).isEqualTo("/jobs/" + first.body().get("id").asString());
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.body().get("id").asString()).isEqualTo(first.body().get("id").asString());
        assertThat(different.status()).isEqualTo(409);
        assertThat(api.get("/jobs?namePrefix=idempotent").body().get("jobs")).hasSize(1);
    }

    @Test
    void listingPagesNewestFirstWithACursorAndFilters() {
        List<String> submitted = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            Map<String, Object> body = JobBodies.job("paged_" + i, "pass");
            body.put("labels", Map.of("team", i % 2 == 0 ? "even" : "odd"));
            submitted.add(api.submit(body).body().get("id").asString());
        }
        List<String> listed = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            JsonNode page = api.get("/jobs?namePrefix=paged_&limit=3" + (cursor == null ? "" : "&cursor=" + cursor)).body();
            page.get("jobs").forEach(job -> listed.add(job.get("id").asString()));
            cursor = page.get("nextCursor").isNull() ? null : page.get("nextCursor").asString();
            pages++;
        } while (cursor != null);

        assertThat(pages).isEqualTo(3);
        assertThat(listed).containsExactlyElementsOf(submitted.reversed());
        Set<String> even = new HashSet<>();
        api.get("/jobs?namePrefix=paged_&label=team=even").body().get("jobs").forEach(job -> even.add(job.get("jobName").asString()));
        assertThat(even).containsExactlyInAnyOrder("paged_0", "paged_2", "paged_4", "paged_6");
        assertThat(api.get("/jobs?state=BOGUS").status()).isEqualTo(400);
        assertThat(api.get("/jobs?cursor=garbage").status()).isEqualTo(422);
        assertThat(api.get("/jobs/" + java.util.UUID.randomUUID()).status()).isEqualTo(404);
    }

    @Test
    void theOpenApiDocumentAndMetricsAreServed() {
        JsonNode spec = api.get("/v3/api-docs").body();
        assertThat(spec.get("paths").has("/jobs")).isTrue();
        assertThat(spec.get("paths").has("/jobs/{id}/logs/stream")).isTrue();
        assertThat(spec.get("paths").has("/jobs/{id}/retry")).isTrue();

        api.awaitEnded(api.submit(JobBodies.job("metered", "print('counted')")).body().get("id").asString(), java.time.Duration.ofSeconds(60));
        String metrics = api.get("/actuator/prometheus").raw().body();
        assertThat(metrics).contains("trainyard_jobs{", "state=\"SUCCEEDED\"", "trainyard_jobs_queue_wait_seconds",
                "trainyard_jobs_dispatch_latency_seconds", "trainyard_logs_lines_ingested_total");
        assertThat(api.get("/actuator/health").body().get("status").asString()).isEqualTo("UP");
    }

    @Test
    void theOldDryRunParameterIsRefusedAndStoresNothing() {
        int storedBefore = api.get("/jobs?limit=500").body().get("jobs").size();
        ApiClient.Response response = api.post("/jobs?dryRun=true", JobBodies.job("old_dry_run", "pass"));
        assertProblem(response, 422, "dryRun", "/jobs/dry-run");
        assertThat(api.get("/jobs?limit=500").body().get("jobs").size()).isEqualTo(storedBefore);
    }

    @Test
    void bodiesOfTheWrongTypeAreRefusedInTheApisWordsNotJacksons() {
        Map<String, Object> body = JobBodies.job("wrong_type", "pass");
        body.put("priority", 1.5);
        body.put("requireGpus", 0);
        ApiClient.Response response = api.post("/jobs", body);
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.body().get("errors").get(0).get("field").asString()).isIn("priority", "requireGpus");
        assertThat(response.body().toString()).doesNotContain("Jackson", "DeserializationFeature", "tools.jackson", "java.lang");

        ApiClient.Response malformed = api.postRaw("/jobs", "{\"jobName\": ");
        assertProblem(malformed, 400, "body", "is not valid JSON");
    }

    private static void assertProblem(ApiClient.Response response, int status, String field, String messagePart) {
        assertThat(response.status()).as("status of %s", response.body()).isEqualTo(status);
        assertThat(response.header("Content-Type")).contains("application/problem+json");
        assertThat(response.body().get("errors")).as("errors of %s", response.body())
                .anySatisfy(error -> {
                    assertThat(error.get("field").asString()).isEqualTo(field);
                    assertThat(error.get("message").asString()).contains(messagePart);
                });
    }

    private static List<String> fields(ApiClient.Response response) {
        List<String> fields = new ArrayList<>();
        response.body().get("errors").forEach(error -> fields.add(error.get("field").asString()));
        return fields;
    }

    private static List<String> messages(ApiClient.Response response) {
        List<String> messages = new ArrayList<>();
        response.body().get("errors").forEach(error -> messages.add(error.get("message").asString()));
        return messages;
    }
}

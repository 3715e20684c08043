package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.trainyard.testing.ApiClient;
import io.trainyard.testing.ExternalPostgres;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RunningServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The operator's report that opened issue 10, replayed: an external PostgreSQL crashes ({@code pg_ctl stop -m
 * immediate}) while a job prints 3,000 lines at 100 lines/s, and comes back 10 s later. The job must end
 * SUCCEEDED in its first attempt with every line, and meanwhile the server must say plainly that its database
 * is away.
 */
class DatabaseOutageTest {

    @TempDir
    Path dataDir;

    @Test
    void aJobOutlivesADatabaseCrashWithItsCompleteLogAndTheServerAnswers503Meanwhile() throws Exception {
        assumeTrue(ExternalPostgres.available(), "PostgreSQL 15 binaries not found under " + ExternalPostgres.BIN
                + " (apt-get install postgresql): this test needs a database it can crash");
        String program = "import time\nfor i in range(1, 3001):\n    print('line', i, flush=True)\n    time.sleep(0.01)\n";
        try (ExternalPostgres postgres = ExternalPostgres.start();
                RunningServer server = RunningServer.start(postgres.jdbcUrl(), dataDir, "outage-node")) {
            ApiClient api = server.api();
            String id = api.submit(JobBodies.job("outlives_its_database", program)).body().get("id").asString();
            api.awaitJob(id, job -> job.get("state").asString().equals("RUNNING"), Duration.ofSeconds(30));
            Thread.sleep(8_000);

            postgres.crash();
            long crashedAt = System.nanoTime();
            ApiClient.await("a 503 while the database is away", () -> api.get("/jobs/" + id).status() == 503,
                    Duration.ofSeconds(10));
            ApiClient.Response unavailable = api.get("/jobs/" + id);
            assertThat(unavailable.header("Content-Type")).startsWith("application/problem+json");
            assertThat(unavailable.header("Retry-After")).isNotBlank();
            assertThat(unavailable.body().get("status").asInt()).isEqualTo(503);
            assertThat(api.get("/agents").status()).isEqualTo(503);
            ApiClient probe = new ApiClient(api.baseUrl(), null);
            assertThat(probe.get("/actuator/health/readiness").status()).isEqualTo(503);
            assertThat(probe.get("/actuator/health/liveness").status()).isEqualTo(200);
            // A token accepted before the outage still scrapes metrics.
            assertThat(api.get("/actuator/prometheus").raw().body()).contains("trainyard_database_up 0.0");
            Thread.sleep(Math.max(0, 10_000 - Duration.ofNanos(System.nanoTime() - crashedAt).toMillis()));
            postgres.startAgain();

            // 503s until the server has the database back.
            ApiClient.await("the job ending", () -> {
                ApiClient.Response answer = api.get("/jobs/" + id);
                return answer.status() == 200 && List.of("SUCCEEDED", "FAILED", "CANCELLED")
                        .contains(answer.body().get("state").asString());
            }, Duration.ofSeconds(120));
            JsonNode job = api.job(id);
            assertThat(job.get("state").asString()).isEqualTo("SUCCEEDED");
            assertThat(job.get("attempt").asInt()).isEqualTo(1);
            List<String> expected = new ArrayList<>();
            for (int i = 1; i <= 3000; i++) {
                expected.add("line " + i);
            }
            assertThat(api.logTexts(id)).containsExactlyElementsOf(expected);
            assertThat(probe.get("/actuator/health/readiness").status()).isEqualTo(200);

            // The outage shows where an operator looks: on the agent, and in the job's history.
            JsonNode agent = api.get("/agents").body().get(0);
            assertThat(agent.get("state").asString()).isEqualTo("ACTIVE");
            assertThat(agent.get("lastDatabaseOutage").get("seenBy").asString()).isEqualTo("outage-node");
            List<String> messages = new ArrayList<>();
            api.get("/jobs/" + id + "/events").body().forEach(event -> messages.add(event.get("message").asString()));
            assertThat(messages).anyMatch(message -> message.contains("could not reach the database"));
            assertThat(api.get("/actuator/prometheus").raw().body()).contains("trainyard_database_up 1.0");
        }
    }
}

package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.trainyard.client.ApiException;
import io.trainyard.client.model.Agent;
import io.trainyard.client.model.Job;
import io.trainyard.client.model.JobEvent;
import io.trainyard.testing.Eventually;
import io.trainyard.testing.ExternalPostgres;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RawHttpClient;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's report that opened issue 10, replayed: an external PostgreSQL crashes ({@code pg_ctl stop -m
 * immediate}) while a job prints 3,000 lines at 100 lines/s, and comes back 10 s later. The job must end
 * SUCCEEDED in its first attempt with every line, and meanwhile the server must say plainly that its database
 * is away (its 503s, their headers and the health probes are asked over raw HTTP).
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
            TrainyardClient api = server.api();
            RawHttpClient http = api.raw();
            UUID id = api.submit(JobBodies.job("outlives_its_database", program)).getId();
            api.awaitState(id, Job.StateEnum.RUNNING, Duration.ofSeconds(30));
            Thread.sleep(8_000);

            postgres.crash();
            long crashedAt = System.nanoTime();
            Eventually.await("a 503 while the database is away", () -> http.get("/jobs/" + id).status() == 503,
                    Duration.ofSeconds(10));
            RawHttpClient.Response unavailable = http.get("/jobs/" + id);
            assertThat(unavailable.header("Content-Type")).startsWith("application/problem+json");
            assertThat(unavailable.header("Retry-After")).isNotBlank();
            assertThat(unavailable.body().get("status").asInt()).isEqualTo(503);
            assertThat(http.get("/agents").status()).isEqualTo(503);
            RawHttpClient probe = http.withToken(null);
            assertThat(probe.get("/actuator/health/readiness").status()).isEqualTo(503);
            assertThat(probe.get("/actuator/health/liveness").status()).isEqualTo(200);
            // A token accepted before the outage still scrapes metrics.
            assertThat(http.get("/actuator/prometheus").raw().body()).contains("trainyard_database_up 0.0");
            Thread.sleep(Math.max(0, 10_000 - Duration.ofNanos(System.nanoTime() - crashedAt).toMillis()));
            postgres.startAgain();

            // 503s until the server has the database back.
            Eventually.await("the job ending", () -> ended(api, id), Duration.ofSeconds(120));
            Job job = api.job(id);
            assertThat(job.getState()).isEqualTo(Job.StateEnum.SUCCEEDED);
            assertThat(job.getAttempt()).isEqualTo(1);
            List<String> expected = new ArrayList<>();
            for (int i = 1; i <= 3000; i++) {
                expected.add("line " + i);
            }
            assertThat(api.logTexts(id)).containsExactlyElementsOf(expected);
            assertThat(probe.get("/actuator/health/readiness").status()).isEqualTo(200);

            // The outage shows where an operator looks: on the agent, and in the job's history.
            Agent agent = api.agents().listAgents().getFirst();
            assertThat(agent.getState()).isEqualTo(Agent.StateEnum.ACTIVE);
            assertThat(agent.getLastDatabaseOutage().getSeenBy()).isEqualTo("outage-node");
            assertThat(api.jobs().listJobEvents(id)).extracting(JobEvent::getMessage)
                    .anyMatch(message -> message != null && message.contains("could not reach the database"));
            assertThat(http.get("/actuator/prometheus").raw().body()).contains("trainyard_database_up 1.0");
        }
    }

    /** Whether the job has ended; false while the server answers 503 for want of its database. */
    private static boolean ended(TrainyardClient api, UUID id) throws ApiException {
        try {
            return List.of(Job.StateEnum.SUCCEEDED, Job.StateEnum.FAILED, Job.StateEnum.CANCELLED)
                    .contains(api.jobs().getJob(id).getState());
        } catch (ApiException e) {
            if (e.getCode() == 503) {
                return false;
            }
            throw e;
        }
    }
}

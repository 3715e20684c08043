package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;

import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** A chatty trainer cannot fill the database: past the per-attempt quota one marker line says so. */
class LogQuotaTest {

    @TempDir
    Path dataDir;

    @Test
    void linesPastTheQuotaAreReplacedByOneMarkerLine() {
        try (RunningServer server = RunningServer.start(TestDatabase.newDatabaseUrl(), dataDir, "quota-node",
                "--trainyard.max-log-lines-per-attempt=100")) {
            String id = server.api().submit(JobBodies.job("chatty", JobBodies.printLines(500, 100))).body().get("id").asString();

            JsonNode job = server.api().awaitEnded(id, Duration.ofSeconds(60));
            JsonNode lines = server.api().get("/jobs/" + id + "/logs?limit=1000").body().get("lines");

            assertThat(job.get("state").asString()).isEqualTo("SUCCEEDED");
            assertThat(lines).hasSize(101);
            assertThat(lines.get(99).get("text").asString()).isEqualTo("line 100");
            assertThat(lines.get(100).get("text").asString()).contains("log quota of 100 lines");
            assertThat(lines.get(100).get("stream").asString()).isEqualTo("stderr");
        }
    }
}

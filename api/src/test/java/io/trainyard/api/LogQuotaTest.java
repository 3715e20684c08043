package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.trainyard.client.ApiException;
import io.trainyard.client.model.Job;
import io.trainyard.client.model.LogLine;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TestDatabase;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A chatty trainer cannot fill the database: past the per-attempt quota one marker line says so. */
class LogQuotaTest {

    @TempDir
    Path dataDir;

    @Test
    void linesPastTheQuotaAreReplacedByOneMarkerLine() throws ApiException {
        try (RunningServer server = RunningServer.start(TestDatabase.newDatabaseUrl(), dataDir, "quota-node",
                "--trainyard.max-log-lines-per-attempt=100")) {
            TrainyardClient api = server.api();
            UUID id = api.submit(JobBodies.job("chatty", JobBodies.printLines(500, 100))).getId();

            Job job = api.awaitEnded(id, Duration.ofSeconds(60));
            List<LogLine> lines = api.logs().getJobLogs(id, null, 1000).getLines();

            assertThat(job.getState()).isEqualTo(Job.StateEnum.SUCCEEDED);
            assertThat(lines).hasSize(101);
            assertThat(lines.get(99).getText()).isEqualTo("line 100");
            assertThat(lines.get(100).getText()).contains("log quota of 100 lines");
            assertThat(lines.get(100).getStream()).isEqualTo(LogLine.StreamEnum.STDERR);
        }
    }
}

package io.trainyard.backend.local.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;

import io.trainyard.TrainyardTestApplication;
import io.trainyard.job.JobQueries;
import io.trainyard.job.JobState;
import io.trainyard.job.JobTransitions;
import io.trainyard.job.TestJobs;
import io.trainyard.logs.LogLine;
import io.trainyard.logs.LogStore;
import io.trainyard.logs.StoredLine;
import io.trainyard.protocol.LogAck;
import io.trainyard.protocol.LogBatch;
import io.trainyard.protocol.LogStream;
import io.trainyard.protocol.OutputLine;
import io.trainyard.protocol.Registration;
import io.trainyard.protocol.Started;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Log batches as agents ship them, through the fenced reports the protocol's endpoints call: a resent batch
 * is stored once, shipping resumes after the last stored batch, the attempt's quota ends with one marker
 * line, and a replaced agent process stores nothing.
 */
// No embedded agent: the test plays the agent through the backend's services, and there is no web server to reach.
@SpringBootTest(classes = TrainyardTestApplication.class,
        properties = {"trainyard.max-log-lines-per-attempt=5", "trainyard.local.embedded-agent=false"})
class ShippedLogsTest {

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TrainyardTestApplication.database(registry);
    }

    @Autowired
    AgentWork work;
    @Autowired
    AgentReports reports;
    @Autowired
    ShippedLogs shippedLogs;
    @Autowired
    JobTransitions transitions;
    @Autowired
    JobQueries queries;
    @Autowired
    LogStore logStore;

    private String agentId;
    private long epoch;
    private UUID jobId;

    /** An agent of its own per test, and a job the dispatcher places on it, started. */
    @BeforeEach
    void aJobRunningOnAnAgent() {
        agentId = "agent-" + UUID.randomUUID().toString().substring(0, 8);
        epoch = work.register(agentId, new Registration("test-host", List.of(), 1)).epoch();
        jobId = transitions.createAll(List.of(TestJobs.job("shipped", LocalRuns.BACKEND, 1, 1))).getFirst().getId();
        await().atMost(Duration.ofSeconds(10)).until(() -> agentId.equals(queries.get(jobId).getNodeId()));
        reports.started(agentId, jobId, 1, new Started(epoch, "{\"workers\":[]}", Map.of(), null, null));
    }

    @Test
    void aResentBatchIsAcknowledgedWithoutBeingStoredTwice() {
        reports.logs(agentId, jobId, 1, batch(1, "first"));
        LogAck again = reports.logs(agentId, jobId, 1, batch(1, "first"));
        reports.logs(agentId, jobId, 1, batch(2, "second"));

        assertThat(again.batch()).isEqualTo(1);
        assertThat(texts()).containsExactly("first", "second");
        assertThat(shippedLogs.lastBatch(jobId, 1, 0)).isEqualTo(2);
        assertThat(logStore.readPositions(jobId, 1)).containsEntry("rank-0.stdout", 2L * 100);
        // A restarted agent learns where to resume: after batch 2, at the stored positions.
        assertThat(work.register(agentId, new Registration("test-host", List.of(), 1)).runs())
                .singleElement().satisfies(run -> {
                    assertThat(run.lastBatch()).isEqualTo(2);
                    assertThat(run.readPositions()).containsEntry("rank-0.stdout", 200L);
                });
    }

    @Test
    void theQuotaEndsTheAttemptsLogWithOneMarkerAndTellsTheAgent() {
        LogAck ack = reports.logs(agentId, jobId, 1, batch(1, IntStream.rangeClosed(1, 8).mapToObj(i -> "line " + i).toArray(String[]::new)));

        assertThat(ack.quotaReached()).isTrue();
        List<String> texts = texts();
        assertThat(texts).hasSize(6).startsWith("line 1", "line 2", "line 3", "line 4", "line 5");
        assertThat(texts.getLast()).startsWith("[trainyard] this attempt reached its log quota of 5 lines");
        assertThat(reports.logs(agentId, jobId, 1, batch(2, "after")).quotaReached()).isTrue();
        assertThat(texts()).hasSize(6);
    }

    @Test
    void aReplacedAgentProcessStoresNothing() {
        work.register(agentId, new Registration("test-host", List.of(), 1));

        assertThatThrownBy(() -> reports.logs(agentId, jobId, 1, batch(1, "stale")))
                .isInstanceOf(StaleAgentException.class);
        assertThat(texts()).isEmpty();
        assertThat(queries.get(jobId).getState()).isEqualTo(JobState.RUNNING);
    }

    /** A page stops at its limit, mid-chunk; a follower's read runs on to the end of the chunk, so it fetches each once. */
    @Test
    void aPageEndsAtItsLimitWhereAFollowersReadEndsWithItsLastChunk() {
        reports.logs(agentId, jobId, 1, batch(1, "a", "b"));
        reports.logs(agentId, jobId, 1, batch(2, "c", "d"));

        assertThat(logStore.readStored(jobId, 1, 2)).extracting(StoredLine::seq).containsExactly(2L, 3L);
        assertThat(logStore.readWholeChunks(jobId, 1, 2)).extracting(StoredLine::seq).containsExactly(2L, 3L, 4L);
        assertThat(logStore.readStored(jobId, 3, 100)).extracting(StoredLine::seq).containsExactly(4L);
        assertThat(logStore.readWholeChunks(jobId, 4, 100)).isEmpty();
    }

    private LogBatch batch(long number, String... texts) {
        List<OutputLine> lines = Arrays.stream(texts)
                .map(text -> OutputLine.at(Instant.now(), LogStream.STDOUT, 0, text)).toList();
        return new LogBatch(epoch, number, lines, Map.of("rank-0.stdout", number * 100));
    }

    private List<String> texts() {
        return logStore.read(jobId, 0, 100).stream().map(LogLine::text).toList();
    }
}

package io.trainyard.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.trainyard.TrainyardTestApplication;
import io.trainyard.validation.ConflictException;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** The state machine against the real database: every change is stored with its event, stale runs change nothing. */
@SpringBootTest(classes = TrainyardTestApplication.class, properties = "trainyard.dispatcher.enabled=false")
class JobTransitionsTest {

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TrainyardTestApplication.database(registry);
    }

    @Autowired
    JobTransitions transitions;
    @Autowired
    JobRepository jobs;
    @Autowired
    JobQueries queries;
    @Autowired
    PlatformTransactionManager transactionManager;

    @Test
    void aRunFromStartToSuccessRecordsEveryStepWithItsEvent() {
        Job job = transitions.createAll(List.of(TestJobs.job("steps", "test", 2, 1))).getFirst();
        startOn(job.getId(), "node-a", TestJobs.onCpu("node-a", 2));

        assertThat(transitions.markRunning(job.getId(), 1, "{\"workers\":[]}", Map.of("trainedModelUri", "file:///host/model.pt"), null))
                .contains(JobState.RUNNING);
        assertThat(transitions.finish(job.getId(), 1, RunOutcome.succeeded())).isTrue();

        Job stored = queries.get(job.getId());
        assertThat(stored.getState()).isEqualTo(JobState.SUCCEEDED);
        assertThat(stored.getNodeId()).isEqualTo("node-a");
        assertThat(stored.getPlacement()).isEqualTo(TestJobs.onCpu("node-a", 2));
        assertThat(stored.getOutputs()).containsEntry("trainedModelUri", "file:///host/model.pt");
        assertThat(stored.getExitCode()).isZero();
        assertThat(stored.getTask().trainerCommand()).startsWith("python3 -u -c");
        assertThat(queries.events(job.getId())).extracting(JobEvent::getToState)
                .containsExactly(JobState.QUEUED, JobState.STARTING, JobState.RUNNING, JobState.SUCCEEDED);
    }

    @Test
    void aRunStartsWhenItsHostStartedItsProcessesAndAHostClockOutsideTheClaimAndTheReportIsKeptWithinThem() {
        Job spawnedEarlier = transitions.createAll(List.of(TestJobs.job("reported-late", "test", 1, 1))).getFirst();
        startOn(spawnedEarlier.getId(), "node-a", TestJobs.onCpu("node-a", 1));
        Instant claimedAt = queries.get(spawnedEarlier.getId()).getUpdatedAt();
        Instant spawnedAt = claimedAt.plusNanos(1_000);
        transitions.markRunning(spawnedEarlier.getId(), 1, "{}", Map.of(), spawnedAt);
        Job reportedLate = queries.get(spawnedEarlier.getId());
        assertThat(reportedLate.getStartedAt()).isEqualTo(spawnedAt);
        // The RUNNING event is still when the report arrived.
        assertThat(queries.events(reportedLate.getId()).getLast().getAt()).isAfter(spawnedAt);

        Job slowClock = transitions.createAll(List.of(TestJobs.job("slow-clock", "test", 1, 1))).getFirst();
        startOn(slowClock.getId(), "node-b", TestJobs.onCpu("node-b", 1));
        transitions.markRunning(slowClock.getId(), 1, "{}", Map.of(), Instant.EPOCH);
        Job stored = queries.get(slowClock.getId());
        assertThat(stored.getStartedAt()).isEqualTo(queries.events(stored.getId()).get(1).getAt());

        Job fastClock = transitions.createAll(List.of(TestJobs.job("fast-clock", "test", 1, 1))).getFirst();
        startOn(fastClock.getId(), "node-c", TestJobs.onCpu("node-c", 1));
        transitions.markRunning(fastClock.getId(), 1, "{}", Map.of(), Instant.now().plusSeconds(3_600));
        Job ahead = queries.get(fastClock.getId());
        assertThat(ahead.getStartedAt()).isEqualTo(queries.events(ahead.getId()).getLast().getAt());
    }

    @Test
    void anInfrastructureFailureRequeuesTheNextAttemptAfterItsBackoffAndTheOldAttemptIsFencedOff() {
        Job job = transitions.createAll(List.of(TestJobs.job("retried", "test", 1, 2))).getFirst();
        startOn(job.getId(), "node-a", TestJobs.onCpu("node-a", 1));

        transitions.finish(job.getId(), 1, RunOutcome.failed(FailureCause.INFRASTRUCTURE, null, "host lost"));

        Job requeued = queries.get(job.getId());
        assertThat(requeued.getState()).isEqualTo(JobState.QUEUED);
        assertThat(requeued.getAttempt()).isEqualTo(2);
        assertThat(requeued.getNodeId()).isNull();
        assertThat(requeued.getPlacement()).isNull();
        assertThat(requeued.getNotBefore()).isNotNull();
        // The first attempt's run reports late: it belongs to an attempt that is over and changes nothing.
        assertThat(transitions.finish(job.getId(), 1, RunOutcome.succeeded())).isFalse();
        assertThat(transitions.markRunning(job.getId(), 1, "{}", Map.of(), null)).isEmpty();
        assertThat(queries.get(job.getId()).getState()).isEqualTo(JobState.QUEUED);
        assertThat(queries.events(job.getId())).extracting(JobEvent::getToState)
                .containsExactly(JobState.QUEUED, JobState.STARTING, JobState.FAILED, JobState.QUEUED);
    }

    @Test
    void userCodeFailuresAreNotRetriedAndTheLastAttemptEndsFailed() {
        Job job = transitions.createAll(List.of(TestJobs.job("user-error", "test", 1, 3))).getFirst();
        startOn(job.getId(), "node-a", TestJobs.onCpu("node-a", 1));

        transitions.finish(job.getId(), 1, RunOutcome.failed(FailureCause.USER_CODE, 3, "rank 0 exited with code 3"));

        Job failed = queries.get(job.getId());
        assertThat(failed.getState()).isEqualTo(JobState.FAILED);
        assertThat(failed.getFailureCause()).isEqualTo(FailureCause.USER_CODE);
        assertThat(failed.getExitCode()).isEqualTo(3);
    }

    @Test
    void cancelEndsAQueuedJobAtOnceAndAsksARunningOneToStop() {
        Job queued = transitions.createAll(List.of(TestJobs.job("cancel-queued", "test", 1, 1))).getFirst();
        Job running = transitions.createAll(List.of(TestJobs.job("cancel-running", "test", 1, 1))).getFirst();
        startOn(running.getId(), "node-a", TestJobs.onCpu("node-a", 1));

        assertThat(transitions.cancel(queued.getId()).getState()).isEqualTo(JobState.CANCELLED);
        assertThat(transitions.cancel(running.getId()).getState()).isEqualTo(JobState.CANCELLING);
        assertThat(transitions.cancel(running.getId()).getState()).isEqualTo(JobState.CANCELLING);
        transitions.finish(running.getId(), 1, RunOutcome.cancelled(143));
        assertThat(queries.get(running.getId()).getState()).isEqualTo(JobState.CANCELLED);
        assertThatThrownBy(() -> transitions.cancel(running.getId())).isInstanceOf(ConflictException.class);
    }

    @Test
    void onlyAnEndedJobCanBeRetriedAndARetryIsANewAttemptOfTheSameJob() {
        Job job = transitions.createAll(List.of(TestJobs.job("retry", "test", 1, 1))).getFirst();
        startOn(job.getId(), "node-a", TestJobs.onCpu("node-a", 1));
        assertThatThrownBy(() -> transitions.retry(job.getId())).isInstanceOf(ConflictException.class);

        transitions.finish(job.getId(), 1, RunOutcome.failed(FailureCause.USER_CODE, 1, "rank 0 exited with code 1"));
        Job retried = transitions.retry(job.getId());

        assertThat(retried.getId()).isEqualTo(job.getId());
        assertThat(retried.getAttempt()).isEqualTo(2);
        assertThat(retried.getState()).isEqualTo(JobState.QUEUED);
        assertThat(retried.getFailureCause()).isNull();
        assertThatThrownBy(() -> transitions.retry(UUID.randomUUID())).isInstanceOf(JobNotFoundException.class);
    }

    /** What a dispatch transaction does: lock the queued job and move it to STARTING on a node. */
    private void startOn(UUID id, String node, Placement placement) {
        new TransactionTemplate(transactionManager).executeWithoutResult(status ->
                transitions.start(jobs.lockById(id).orElseThrow(), node, placement));
    }
}

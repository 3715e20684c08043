package io.trainyard.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import io.trainyard.TrainyardTestApplication;
import io.trainyard.backend.Backend;
import io.trainyard.backend.BackendDescription;
import io.trainyard.backend.LaunchPlan;
import io.trainyard.backend.PlacementDecision;
import io.trainyard.backend.PlacementPass;
import io.trainyard.gigl.ResourceConfig;
import io.trainyard.gigl.TrainerResource;
import io.trainyard.job.FailureCause;
import io.trainyard.job.Job;
import io.trainyard.job.JobQueries;
import io.trainyard.job.JobState;
import io.trainyard.job.JobTransitions;
import io.trainyard.job.TestJobs;
import io.trainyard.testing.JobBodies;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The dispatcher against the real database with a backend of the test's own: what it places starts on its
 * node and is launched once the claim commits, what can never fit fails at once, what must wait stays queued,
 * and a job that has waited past the starvation threshold keeps smaller jobs behind it off the pool.
 */
@SpringBootTest(classes = {TrainyardTestApplication.class, DispatcherTest.Backends.class},
        properties = {"trainyard.starvation-threshold=3s", "trainyard.dispatch-poll-interval=50ms"})
class DispatcherTest {

    private static final Duration SOON = Duration.ofSeconds(10);

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TrainyardTestApplication.database(registry);
    }

    /** Decides by job name: the test says which jobs fit now, which never will; the rest wait. */
    static final class TestBackend implements Backend {

        final Set<String> fitting = ConcurrentHashMap.newKeySet();
        final Set<String> neverFitting = ConcurrentHashMap.newKeySet();
        final Set<UUID> launched = ConcurrentHashMap.newKeySet();

        @Override
        public BackendDescription description() {
            return new BackendDescription("test", "places what the test lets fit", List.of(TrainerResource.Local.KIND), true,
                    false, false, "agent", Map.class, List.of());
        }

        @Override
        public void validate(Job job) {
        }

        @Override
        public LaunchPlan plan(Job job) {
            return new LaunchPlan(name(), Map.of(), "", List.of());
        }

        @Override
        public String trainerAssetFolder(String jobName, ResourceConfig resource) {
            return "trainer";
        }

        @Override
        public Map<String, String> outputUris(Job job) {
            return Map.of();
        }

        @Override
        public PlacementPass beginPass() {
            return job -> {
                if (fitting.contains(job.getJobName())) {
                    return new PlacementDecision.Placed("test-node", TestJobs.onCpu("test-node", job.getSlots()));
                }
                return neverFitting.contains(job.getJobName()) ? new PlacementDecision.Never("too big for the test")
                        : new PlacementDecision.Wait("not yet");
            };
        }

        @Override
        public void launch(Job job) {
            launched.add(job.getId());
        }

        @Override
        public void requestCancel(UUID jobId) {
        }

        @Override
        public void recover(List<Job> activeJobsOfThisNode) {
        }
    }

    @TestConfiguration
    static class Backends {
        @Bean
        TestBackend testBackend() {
            return new TestBackend();
        }
    }

    @Autowired
    TestBackend backend;
    @Autowired
    JobTransitions transitions;
    @Autowired
    JobQueries queries;

    @Test
    void aJobThatFitsStartsOnItsNodeAndIsLaunchedAfterTheClaimCommits() {
        backend.fitting.add("fits");
        UUID id = submit("fits");

        await().atMost(SOON).until(() -> backend.launched.contains(id));
        Job started = queries.get(id);
        assertThat(started.getState()).isEqualTo(JobState.STARTING);
        assertThat(started.getNodeId()).isEqualTo("test-node");
        assertThat(started.getPlacement()).isEqualTo(TestJobs.onCpu("test-node", 1));
    }

    @Test
    void aJobThatCanNeverFitFailsAtOnceWithItsReason() {
        backend.neverFitting.add("never");
        UUID id = submit("never");

        await().atMost(SOON).until(() -> queries.get(id).getState() == JobState.FAILED);
        Job failed = queries.get(id);
        assertThat(failed.getFailureCause()).isEqualTo(FailureCause.NO_CAPACITY);
        assertThat(failed.getFailureMessage()).isEqualTo("too big for the test");
        assertThat(backend.launched).doesNotContain(id);
    }

    @Test
    void aWaitingJobStaysQueuedUntilItFitsWhileSmallerOnesBackfillUntilItStarves() throws InterruptedException {
        UUID big = submit("big");
        backend.fitting.add("small-early");
        UUID smallEarly = submit("small-early");
        await().atMost(SOON).until(() -> backend.launched.contains(smallEarly));
        assertThat(queries.get(big).getState()).isEqualTo(JobState.QUEUED);

        // Past the starvation threshold, nothing behind the big job is placed.
        Thread.sleep(3_500);
        backend.fitting.add("small-late");
        UUID smallLate = submit("small-late");
        Thread.sleep(1_000);
        assertThat(queries.get(smallLate).getState()).isEqualTo(JobState.QUEUED);

        backend.fitting.add("big");
        await().atMost(SOON).until(() -> backend.launched.containsAll(List.of(big, smallLate)));
    }

    // GiGL's trainer returns at once when both are skipped (gigl/src/training/trainer.py, Trainer.run).
    @Test
    void aJobThatSkipsTrainingAndEvaluationSucceedsWithoutBeingPlacedOrLaunched() {
        backend.fitting.add("skips_everything");
        Job job = TestJobs.job("skips_everything", "test", 1, 1, JobBodies.taskConfig("print('never run')", "outputs/model.pt")
                .replace("sharedConfig:", "sharedConfig:\n  shouldSkipTraining: true\n  shouldSkipModelEvaluation: true"));
        UUID id = transitions.createAll(List.of(job)).getFirst().getId();

        await().atMost(SOON).until(() -> queries.get(id).getState() == JobState.SUCCEEDED);
        assertThat(queries.get(id).getNodeId()).isNull();
        assertThat(backend.launched).doesNotContain(id);
    }

    private UUID submit(String name) {
        return transitions.createAll(List.of(TestJobs.job(name, "test", 1, 1))).getFirst().getId();
    }
}

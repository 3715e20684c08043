package io.trainyard.backend.vertexai;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.Set;

import com.google.cloud.aiplatform.v1.CustomJob;
import com.google.cloud.aiplatform.v1.JobState;
import com.google.rpc.Code;
import com.google.rpc.Status;
import io.trainyard.job.FailureCause;
import io.trainyard.job.RunOutcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class VertexStatesTest {

    private static CustomJob job(JobState state, Code code, String message) {
        CustomJob.Builder job = CustomJob.newBuilder().setState(state);
        if (code != null) {
            job.setError(Status.newBuilder().setCode(code.getNumber()).setMessage(message));
        }
        return job.build();
    }

    private static final Set<JobState> WAITING = EnumSet.of(JobState.JOB_STATE_UNSPECIFIED, JobState.JOB_STATE_QUEUED, JobState.JOB_STATE_PENDING);
    private static final Set<JobState> RUNNING = EnumSet.of(JobState.JOB_STATE_RUNNING, JobState.JOB_STATE_PAUSED, JobState.JOB_STATE_UPDATING);

    @ParameterizedTest
    @EnumSource(value = JobState.class, names = "UNRECOGNIZED", mode = EnumSource.Mode.EXCLUDE)
    void everyVertexStateHasAMeaning(JobState state) {
        VertexStates.Phase phase = VertexStates.of(job(state, null, null));
        if (WAITING.contains(state)) {
            assertThat(phase).isInstanceOf(VertexStates.Waiting.class);
        } else if (RUNNING.contains(state)) {
            assertThat(phase).isInstanceOf(VertexStates.Running.class);
        } else if (state == JobState.JOB_STATE_CANCELLING) {
            assertThat(phase).isInstanceOf(VertexStates.Cancelling.class);
        } else {
            RunOutcome outcome = ((VertexStates.Ended) phase).outcome();
            io.trainyard.job.JobState expected = switch (state) {
                case JOB_STATE_SUCCEEDED -> io.trainyard.job.JobState.SUCCEEDED;
                case JOB_STATE_CANCELLED -> io.trainyard.job.JobState.CANCELLED;
                default -> io.trainyard.job.JobState.FAILED;
            };
            assertThat(outcome.state()).as(state.name()).isEqualTo(expected);
        }
    }

    @Test
    void aReplicaExitingNonZeroIsUserCodeWithItsExitCode() {
        RunOutcome outcome = ended(job(JobState.JOB_STATE_FAILED, Code.INVALID_ARGUMENT,
                "The replica workerpool0-0 exited with a non-zero status of 137."));
        assertThat(outcome.cause()).isEqualTo(FailureCause.USER_CODE);
        assertThat(outcome.exitCode()).isEqualTo(137);
        assertThat(outcome.message()).contains("workerpool0-0");
    }

    @Test
    void failureCausesFollowTheErrorCode() {
        assertThat(ended(job(JobState.JOB_STATE_FAILED, Code.RESOURCE_EXHAUSTED, "no T4 in us-central1")).cause())
                .isEqualTo(FailureCause.NO_CAPACITY);
        assertThat(ended(job(JobState.JOB_STATE_FAILED, Code.DEADLINE_EXCEEDED, "Job timed out")).cause()).isEqualTo(FailureCause.TIMEOUT);
        assertThat(ended(job(JobState.JOB_STATE_FAILED, Code.INTERNAL, "Internal error")).cause()).isEqualTo(FailureCause.INFRASTRUCTURE);
        assertThat(ended(job(JobState.JOB_STATE_FAILED, Code.PERMISSION_DENIED, "sa cannot read image")).cause())
                .isEqualTo(FailureCause.LAUNCH_ERROR);
        assertThat(ended(job(JobState.JOB_STATE_EXPIRED, null, null)).cause()).isEqualTo(FailureCause.NO_CAPACITY);
        assertThat(ended(job(JobState.JOB_STATE_FAILED, Code.UNKNOWN, "")).cause()).isEqualTo(FailureCause.USER_CODE);
    }

    private static RunOutcome ended(CustomJob job) {
        return ((VertexStates.Ended) VertexStates.of(job)).outcome();
    }
}

package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.UUID;

import io.trainyard.client.ApiException;
import io.trainyard.client.ApiResponse;
import io.trainyard.client.api.JobsApi;
import io.trainyard.client.model.Job;
import io.trainyard.client.model.JobSubmission;
import io.trainyard.client.model.LaunchPlan;
import io.trainyard.client.model.Problem;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.ServerExtension;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Java client generated from api/openapi.yaml works against a real server: typed jobs, plans and problems.
 * (Every end-to-end test talks to the server through it too; {@link TrainyardClient} says how it is set up.)
 */
class GeneratedJavaClientTest {

    @RegisterExtension
    static final ServerExtension server = new ServerExtension("generated-client-node");
    static JobsApi jobs;

    @BeforeAll
    static void client() {
        jobs = server.api().jobs();
    }

    @Test
    void submitAnswersTheJobAndARepeatWithTheSameKeyTheSameJob() throws ApiException {
        // Runs until cancelled: a job that ends at once may have ended before the cancel below (409).
        JobSubmission submission = JobBodies.job("client_submit", "import time\ntime.sleep(600)");
        String key = UUID.randomUUID().toString();
        ApiResponse<Job> created = jobs.submitJobWithHttpInfo(submission, key);
        assertThat(created.getStatusCode()).isEqualTo(201);
        Job job = created.getData();
        assertThat(job.getId()).isNotNull();
        assertThat(created.getHeaders().get("location")).containsExactly("/jobs/" + job.getId());

        ApiResponse<Job> repeated = jobs.submitJobWithHttpInfo(submission, key);
        assertThat(repeated.getStatusCode()).isEqualTo(200);
        assertThat(repeated.getData().getId()).isEqualTo(job.getId());

        assertThat(jobs.getJob(job.getId()).getJobName()).isEqualTo("client_submit");
        assertThat(jobs.listJobs(null, "client_", null, null, null, 10).getJobs()).extracting(Job::getId).contains(job.getId());
        assertThat(jobs.cancelJob(job.getId()).getId()).isEqualTo(job.getId());
    }

    @Test
    void aDryRunAnswersATypedLaunchPlan() throws ApiException {
        LaunchPlan plan = jobs.dryRunJob(submission("client_plan"));
        assertThat(plan.getBackend()).isEqualTo("local");
        assertThat(plan.getWorkers()).hasSize(1);
        assertThat(plan.getWorkers().getFirst().getArgv()).contains("--job_name=client_plan");
    }

    @Test
    void anInvalidSubmissionIsAProblemListingTheField() throws Exception {
        JobSubmission invalid = submission("Not-A-GiGL-Name");
        ApiException error = catchThrowableOfType(ApiException.class, () -> jobs.submitJob(invalid, null));
        assertThat(error.getCode()).isEqualTo(422);
        Problem problem = TrainyardClient.problem(error.getResponseBody());
        assertThat(problem.getErrors()).anySatisfy(field -> assertThat(field.getField()).isEqualTo("jobName"));
    }

    private static JobSubmission submission(String name) {
        return JobBodies.job(name, "print('trained')");
    }
}

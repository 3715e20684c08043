package io.trainyard.backend.vertexai;

import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

import com.google.cloud.aiplatform.v1.CreateCustomJobRequest;
import com.google.cloud.aiplatform.v1.CustomJob;
import com.google.cloud.aiplatform.v1.CustomJobName;
import com.google.cloud.aiplatform.v1.JobServiceClient;
import com.google.cloud.aiplatform.v1.ListCustomJobsRequest;
import com.google.cloud.aiplatform.v1.LocationName;

/**
 * The CustomJob calls Trainyard makes, each inside the region's quotas: creations count against both the
 * creation and the request quota, reads and cancels against the request quota.
 */
final class VertexJobs {

    private final Function<String, JobServiceClient> clientForRegion;
    private final QuotaLimiter creations;
    private final QuotaLimiter requests;

    VertexJobs(Function<String, JobServiceClient> clientForRegion, QuotaLimiter creations, QuotaLimiter requests) {
        this.clientForRegion = clientForRegion;
        this.creations = creations;
        this.requests = requests;
    }

    /**
     * Creates the CustomJob of a job attempt unless it exists: a server that crashed between creating it and
     * recording it finds it by its labels instead of launching the training twice.
     */
    CustomJob createOnce(CreateCustomJobRequest request, UUID jobId, int attempt) throws InterruptedException {
        Optional<CustomJob> existing = find(request.getParent(), jobId, attempt);
        if (existing.isPresent()) {
            return existing.get();
        }
        String region = LocationName.parse(request.getParent()).getLocation();
        try (QuotaLimiter.Permit call = requests.acquire(region); QuotaLimiter.Permit creation = creations.acquire(region)) {
            return clientForRegion.apply(region).createCustomJob(request.getParent(), request.getCustomJob());
        }
    }

    /** The CustomJob labelled with this job attempt, if one was created. */
    Optional<CustomJob> find(String parent, UUID jobId, int attempt) throws InterruptedException {
        String region = LocationName.parse(parent).getLocation();
        ListCustomJobsRequest list = ListCustomJobsRequest.newBuilder()
                .setParent(parent)
                .setFilter("labels." + CustomJobBuilder.JOB_ID_LABEL + "=\"" + jobId + "\" AND labels."
                        + CustomJobBuilder.ATTEMPT_LABEL + "=\"" + attempt + "\"")
                .build();
        // One page: the labels match at most one CustomJob.
        try (QuotaLimiter.Permit permit = requests.acquire(region)) {
            for (CustomJob job : clientForRegion.apply(region).listCustomJobs(list).getPage().getValues()) {
                return Optional.of(job);
            }
            return Optional.empty();
        }
    }

    CustomJob get(String name) throws InterruptedException {
        String region = CustomJobName.parse(name).getLocation();
        try (QuotaLimiter.Permit permit = requests.acquire(region)) {
            return clientForRegion.apply(region).getCustomJob(name);
        }
    }

    /** Asks Vertex AI to cancel; the job reports CANCELLING, then its real end state. */
    void cancel(String name) throws InterruptedException {
        String region = CustomJobName.parse(name).getLocation();
        try (QuotaLimiter.Permit permit = requests.acquire(region)) {
            clientForRegion.apply(region).cancelCustomJob(name);
        }
    }
}

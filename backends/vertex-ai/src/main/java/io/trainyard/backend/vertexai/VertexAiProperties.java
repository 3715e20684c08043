package io.trainyard.backend.vertexai;

import java.time.Duration;

import io.trainyard.launch.TrainerImages;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code trainyard.vertex-ai.*}. The backend exists only when {@code project} is set; each
 * job still runs in the project and region of its resource config, as GiGL launches it.
 *
 * @param project the project of the server's own calls (TensorBoard links); setting it turns the backend on
 * @param region the region used when a resource config names none
 * @param cpuImage the container image of pools without GPUs (GiGL's {@code cpu_docker_uri}) for jobs that name
 *     none; default, as in GiGL's launcher, GiGL's release image
 * @param cudaImage the container image of pools with GPUs (GiGL's {@code cuda_docker_uri}) for jobs that name
 *     none; default GiGL's release image
 * @param tensorboard a Vertex AI TensorBoard instance
 *     ({@code projects/p/locations/r/tensorboards/n}) for jobs whose resource config names none
 * @param apiEndpoint overrides {@code <region>-aiplatform.googleapis.com:443} (tests, private endpoints)
 * @param loggingEndpoint overrides the Cloud Logging endpoint
 * @param emulator for tests and emulators only: {@code apiEndpoint}, {@code loggingEndpoint} and
 *     {@code monitoringEndpoint} are spoken to over plaintext gRPC without credentials
 * @param pollInterval the first wait between two looks at a running CustomJob
 * @param maxPollInterval the longest wait between two looks, reached by doubling
 * @param creationsPerMinute Vertex AI's quota of CustomJob creations per region
 * @param requestsPerMinute Vertex AI's quota of CustomJob reads, creations and cancels per region
 * @param logReadsPerMinute Cloud Logging's quota of entry listings per project
 * @param storageReadsPerMinute this server's Cloud Storage listings and object reads of TensorBoard event files, per
 *     project
 * @param logSettleTime how long Cloud Logging may take to make an entry readable: entries younger than
 *     this are read on a later poll, so none is skipped for arriving late
 * @param bigqueryQuotaProject passed to the trainer as {@code GIGL_BIGQUERY_QUOTA_PROJECT} when set, as GiGL's
 *     launcher passes on its own environment's (the server's application.yaml takes it from that variable)
 * @param monitoringEndpoint overrides the Cloud Monitoring endpoint
 * @param monitoringReadsPerMinute Cloud Monitoring's quota of time series listings per project (its own is 6,000)
 * @param monitoringReadInterval how often a running job's machine use is read from Cloud Monitoring (which records a
 *     point a minute)
 * @param monitoringSettleTime how long Cloud Monitoring may take to make a point readable: later points are read on
 *     a later look
 */
@ConfigurationProperties("trainyard.vertex-ai")
public record VertexAiProperties(
        String project,
        @DefaultValue("us-central1") String region,
        @DefaultValue(TrainerImages.GIGL_RELEASE_CPU_IMAGE) String cpuImage,
        @DefaultValue(TrainerImages.GIGL_RELEASE_CUDA_IMAGE) String cudaImage,
        String tensorboard,
        String apiEndpoint,
        String loggingEndpoint,
        boolean emulator,
        @DefaultValue("10s") Duration pollInterval,
        @DefaultValue("60s") Duration maxPollInterval,
        @DefaultValue("60") int creationsPerMinute,
        @DefaultValue("600") int requestsPerMinute,
        @DefaultValue("60") int logReadsPerMinute,
        @DefaultValue("10s") Duration logSettleTime,
        String bigqueryQuotaProject,
        @DefaultValue("600") int storageReadsPerMinute,
        String monitoringEndpoint,
        @DefaultValue("600") int monitoringReadsPerMinute,
        @DefaultValue("60s") Duration monitoringReadInterval,
        @DefaultValue("3m") Duration monitoringSettleTime) {

    public VertexAiProperties {
        // An image set to nothing means GiGL's own, as a job naming none gets in GiGL's launcher.
        cpuImage = cpuImage == null || cpuImage.isBlank() ? TrainerImages.GIGL_RELEASE_CPU_IMAGE : cpuImage.strip();
        cudaImage = cudaImage == null || cudaImage.isBlank() ? TrainerImages.GIGL_RELEASE_CUDA_IMAGE : cudaImage.strip();
        bigqueryQuotaProject = bigqueryQuotaProject == null || bigqueryQuotaProject.isBlank() ? null : bigqueryQuotaProject.strip();
    }

    /** The images of jobs that name none. */
    public TrainerImages defaultImages() {
        return new TrainerImages(cpuImage, cudaImage);
    }
}

package io.trainyard.backend.vertexai;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.google.cloud.aiplatform.v1.CreateCustomJobRequest;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.trainyard.backend.Backend;
import io.trainyard.backend.BackendDescription;
import io.trainyard.backend.FollowedRuns;
import io.trainyard.backend.LaunchPlan;
import io.trainyard.backend.PlacementDecision;
import io.trainyard.backend.PlacementPass;
import io.trainyard.gigl.ResourceConfig;
import io.trainyard.job.Job;
import io.trainyard.job.JobState;
import io.trainyard.validation.InvalidRequestException;
import io.trainyard.validation.Violation;
import org.springframework.context.SmartLifecycle;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs {@code vertexAiTrainerConfig} and {@code vertexAiGraphStoreTrainerConfig} jobs as Vertex AI
 * CustomJobs. Vertex AI holds the machines, so a job is placed at once; each running job is followed by
 * its own {@link VertexRun} on a virtual thread, and all of them share the quota limiters.
 */
public class VertexAiBackend implements Backend, SmartLifecycle {

    public static final String NAME = "vertex-ai";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final CustomJobBuilder builder;
    /** This replica: it follows the CustomJobs it creates, and re-attaches to them after a restart. */
    private final String nodeId;
    private final GcsFiles files;
    private final VertexRun.Services services;
    private final FollowedRuns<VertexRun> runs = new FollowedRuns<>(NAME);
    private volatile boolean running;

    VertexAiBackend(VertexAiProperties properties, String nodeId, GcsFiles files, VertexRun.Services services) {
        this.builder = new CustomJobBuilder(properties);
        this.nodeId = nodeId;
        this.files = files;
        this.services = services;
    }

    @Override
    public BackendDescription description() {
        return VertexAiModule.DESCRIPTION;
    }

    @Override
    public void validate(Job job) {
        List<Violation> violations = new ArrayList<>();
        job.getTask().trainedModelMetadata().byField().forEach((field, uri) -> {
            if (!uri.startsWith("gs://")) {
                violations.add(new Violation("taskConfig.sharedConfig.trainedModelMetadata." + field,
                        "'" + uri + "' is not on GCS; a Vertex AI job can only write to gs:// URIs"));
            }
        });
        if (!violations.isEmpty()) {
            throw new InvalidRequestException(violations);
        }
        builder.build(job, AssetFolder.of(job));
    }

    @Override
    public LaunchPlan plan(Job job) {
        validate(job);
        AssetFolder assets = AssetFolder.of(job);
        VertexAiPlacement placement = placement(job);
        Map<String, Object> shown = new LinkedHashMap<>();
        shown.put("project", placement.project());
        shown.put("region", placement.region());
        return new LaunchPlan(NAME, shown, assets.configFolder(), List.of(), toJson(builder.build(job, assets)), null);
    }

    @Override
    public String trainerAssetFolder(String jobName, ResourceConfig resource) {
        return AssetFolder.trainerAssetFolder(jobName, resource);
    }

    @Override
    public Map<String, String> outputUris(Job job) {
        return job.getTask().trainedModelMetadata().byField();
    }

    /** Vertex AI finds the machines; the job is placed in its project and region at once. */
    @Override
    public PlacementPass beginPass() {
        return job -> new PlacementDecision.Placed(nodeId, placement(job).tagged());
    }

    @Override
    public void launch(Job job) {
        follow(job, false);
    }

    @Override
    public void requestCancel(UUID jobId) {
        runs.run(jobId).ifPresent(VertexRun::requestCancel);
    }

    /** After a restart every active job is followed again; its CustomJob is found by its labels. */
    @Override
    public void recover(List<Job> activeJobsOfThisNode) {
        for (Job job : activeJobsOfThisNode) {
            follow(job, job.getState() == JobState.CANCELLING);
        }
    }

    @Override
    public Map<String, String> links(Job job) {
        return VertexLinks.of(job.getRunState());
    }

    private void follow(Job job, boolean cancelling) {
        UUID id = job.getId();
        int attempt = job.getAttempt();
        AssetFolder assets = AssetFolder.of(job);
        CreateCustomJobRequest request = builder.build(job, assets);
        Runnable prepare = () -> {
            files.deleteAll(builder.trainerLaunch(job, assets).outputsToClear());
            files.write(assets.taskConfigUri(), job.getTaskConfig());
            files.write(assets.resourceConfigUri(), job.getResourceConfig());
        };
        VertexRun run = new VertexRun(services, id, attempt, job.getOutputs().get("tensorboardLogsUri"), request, prepare,
                job.getStartedAt() == null ? Instant.now() : job.getStartedAt(), Duration.ofSeconds(job.getTimeoutSeconds()));
        // At shutdown the CustomJob goes on, and the next start follows it again.
        runs.start(id, run, () -> run.follow(cancelling), () -> { });
    }

    private static VertexAiPlacement placement(Job job) {
        return new VertexAiPlacement(job.getResource().commonComputeConfig().project(), CustomJobBuilder.regionOf(job));
    }

    /** The request as the JSON form of its proto, the way Vertex AI's REST API and gcloud show it. */
    static Map<String, Object> toJson(CreateCustomJobRequest request) {
        try {
            return JSON.readValue(JsonFormat.printer().print(request), new TypeReference<>() {
            });
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("a CustomJob request always prints as JSON", e);
        }
    }

    @Override
    public void start() {
        running = true;
    }

    /** On shutdown the CustomJobs keep running; a restarted server follows them again. */
    @Override
    public void stop() {
        running = false;
        runs.interruptAll();
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}

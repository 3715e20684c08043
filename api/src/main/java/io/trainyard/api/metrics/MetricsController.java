package io.trainyard.api.metrics;

import java.io.IOException;
import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.trainyard.follow.JobFollowing;
import io.trainyard.job.JobQueries;
import io.trainyard.scalars.ScalarStore;
import io.trainyard.security.ProjectAccess;
import io.trainyard.security.limits.RateLimited;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.json.JsonMapper;

/** A job's TensorBoard scalars: the tags, one tag's series downsampled for a chart, and a live follow. */
@RestController
@RequestMapping("/jobs/{id}/metrics")
@Tag(name = "metrics", description = "The TensorBoard scalars a job's trainer wrote (loss, learning rate, validation metrics…)")
public class MetricsController {

    private final SeriesEndpoints endpoints;

    public MetricsController(ScalarStore store, JobFollowing following, JobQueries queries, ProjectAccess access,
            JsonMapper json) {
        this.endpoints = new SeriesEndpoints(store, following, queries, access, json);
    }

    @GetMapping
    @Operation(operationId = "listJobMetrics", summary = "The job's scalar tags with their point count, step range, min, max, mean and last value")
    public List<MetricTagView> tags(@PathVariable UUID id) {
        return endpoints.tags(id);
    }

    @GetMapping(value = "/stream", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    @RateLimited(RateLimited.Kind.STREAM)
    @Operation(operationId = "followJobMetrics", summary = "Follow the job's scalars as Server-Sent Events",
            description = "Each stored chunk of points of one tag is an event `points` (a MetricChunkView) whose id "
                    + "orders the chunks; reconnect with Last-Event-ID to resume after it. The stream ends with one "
                    + "event `end` carrying the job's final state, sent after every point of the job; or, within 2 s "
                    + "of the caller's token being revoked or expiring or of its removal from the job's project, with one "
                    + "event `error` whose data is the problem detail (status 401 or 404) instead.",
            responses = @ApiResponse(responseCode = "200", content = @Content(mediaType = MediaType.TEXT_EVENT_STREAM_VALUE)))
    public void stream(@PathVariable UUID id,
            @Parameter(description = "Resume after this event id (set by EventSource on reconnect)",
                    schema = @Schema(pattern = "^[0-9]*$", maxLength = 18))
            @RequestHeader(value = "Last-Event-ID", required = false) @Nullable String lastEventId,
            HttpServletRequest request, HttpServletResponse response) throws IOException, InterruptedException {
        endpoints.stream(id, lastEventId, request, response);
    }

    /**
     * The tag is a query parameter, not the rest of the path: tags contain '/' ({@code train/loss}), which a client
     * generated from the contract encodes in a path parameter as %2F, and the firewall refuses encoded slashes.
     */
    @GetMapping("/series")
    @Operation(operationId = "getJobMetricSeries", summary = "One tag's points of one attempt, by step, downsampled to at most maxPoints",
            description = "Downsampling keeps the lowest and the highest point of each of maxPoints/2 runs of consecutive "
                    + "points, so spikes stay.")
    public MetricSeriesView series(@PathVariable UUID id,
            @Parameter(description = "The tag, as the trainer wrote it (e.g. `train/loss`)")
            @RequestParam @Pattern(regexp = SeriesEndpoints.TAG, message = "must name a tag, without control characters") String tag,
            @Parameter(description = "The attempt (absent or empty: the latest that wrote the tag)", allowEmptyValue = true)
            @RequestParam(required = false) @Min(1) @Nullable Integer attempt,
            @Parameter(description = "Only points with a step above this one (empty: all)", allowEmptyValue = true)
            @RequestParam(required = false) @Nullable Long after,
            @Parameter(description = "At most this many points (2 to 100000); empty: the default", allowEmptyValue = true)
            @RequestParam(defaultValue = "1000") @Min(2) @Max(SeriesEndpoints.MAX_POINTS) int maxPoints) {
        return endpoints.series(id, tag, attempt, after, maxPoints);
    }
}

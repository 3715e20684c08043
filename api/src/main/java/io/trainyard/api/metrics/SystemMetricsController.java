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
import io.trainyard.scalars.SystemMetricStore;
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

/**
 * A job's system metrics, as its scalars are served: the series, one downsampled for a chart, a live follow. A
 * series' step is milliseconds since its attempt started; its tag names the device and the measure
 * ({@code gpu0/utilization_percent}, {@code rank0/cpu_percent}; see {@link io.trainyard.protocol.SystemMetricNames}).
 */
@RestController
@RequestMapping("/jobs/{id}/system-metrics")
@Tag(name = "system-metrics", description = "What a job used of its hosts, sampled every few seconds by the agent: per GPU "
        + "utilisation, memory, power and temperature; per worker CPU, resident memory and bytes read and written")
public class SystemMetricsController {

    private final SeriesEndpoints endpoints;

    public SystemMetricsController(SystemMetricStore store, JobFollowing following, JobQueries queries, ProjectAccess access,
            JsonMapper json) {
        this.endpoints = new SeriesEndpoints(store, following, queries, access, json);
    }

    @GetMapping
    @Operation(operationId = "listJobSystemMetrics",
            summary = "The job's system metric series with their point count, time range (ms), min, max, mean and last value")
    public List<MetricTagView> tags(@PathVariable UUID id) {
        return endpoints.tags(id);
    }

    @GetMapping(value = "/stream", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    @RateLimited(RateLimited.Kind.STREAM)
    @Operation(operationId = "followJobSystemMetrics", summary = "Follow the job's system metrics as Server-Sent Events",
            description = "Each stored chunk of samples of one series is an event `points` (a MetricChunkView) whose id "
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

    /** The tag is a query parameter, as for scalars: it contains '/'. */
    @GetMapping("/series")
    @Operation(operationId = "getJobSystemMetricSeries", summary = "One series' samples of one attempt, by time, downsampled to at most maxPoints",
            description = "Downsampling keeps the lowest and the highest point of each of maxPoints/2 runs of consecutive "
                    + "points, so spikes stay.")
    public MetricSeriesView series(@PathVariable UUID id,
            @Parameter(description = "The series (e.g. `gpu0/utilization_percent`)")
            @RequestParam @Pattern(regexp = SeriesEndpoints.TAG, message = "must name a tag, without control characters") String tag,
            @Parameter(description = "The attempt (absent or empty: the latest that wrote the tag)", allowEmptyValue = true)
            @RequestParam(required = false) @Min(1) @Nullable Integer attempt,
            @Parameter(description = "Only samples taken later than this many ms after the attempt started (empty: all)", allowEmptyValue = true)
            @RequestParam(required = false) @Nullable Long after,
            @Parameter(description = "At most this many points (2 to 100000); empty: the default", allowEmptyValue = true)
            @RequestParam(defaultValue = "1000") @Min(2) @Max(SeriesEndpoints.MAX_POINTS) int maxPoints) {
        return endpoints.series(id, tag, attempt, after, maxPoints);
    }
}

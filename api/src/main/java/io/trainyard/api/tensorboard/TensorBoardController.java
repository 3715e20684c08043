package io.trainyard.api.tensorboard;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import io.swagger.v3.oas.annotations.Hidden;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.trainyard.job.Job;
import io.trainyard.job.JobNotFoundException;
import io.trainyard.job.JobRepository;
import io.trainyard.security.ProjectAccess;
import io.trainyard.security.Role;
import io.trainyard.tensorboard.ScalarExport;
import io.trainyard.tensorboard.TensorBoards;
import io.trainyard.validation.InvalidRequestException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * TensorBoard for jobs, through the server's own URL and credentials: {@code /jobs/{id}/tensorboard/} for one
 * job, {@code /tensorboards/{id},{id},…/} comparing several. Each request is allowed if the caller may view every
 * job shown; TensorBoard reads the event files the server writes from the job's stored scalars
 * ({@link ScalarExport}), so it works wherever the job ran.
 */
@RestController
@Tag(name = "tensorboard", description = "TensorBoard of one job or several, proxied by the server")
public class TensorBoardController {

    private static final int MAX_COMPARED = 20;

    private final TensorBoards tensorBoards;
    private final ScalarExport export;
    private final TensorBoardProxy proxy;
    private final JobRepository jobs;
    private final ProjectAccess access;

    public TensorBoardController(TensorBoards tensorBoards, ScalarExport export, TensorBoardProxy proxy,
            JobRepository jobs, ProjectAccess access) {
        this.tensorBoards = tensorBoards;
        this.export = export;
        this.proxy = proxy;
        this.jobs = jobs;
        this.access = access;
    }

    // Like the pages under it, which share its path (and so its methods), not part of the public document: clients
    // follow a job's links.tensorboard.
    @Hidden
    @GetMapping("/jobs/{id}/tensorboard")
    @Operation(operationId = "openJobTensorBoard", summary = "The job's TensorBoard (redirects to the folder URL TensorBoard's pages expect)")
    public ResponseEntity<Void> jobRedirect(@PathVariable UUID id) {
        access.requireJob(id, Role.VIEWER);
        return ResponseEntity.status(302).location(URI.create("/jobs/" + id + "/tensorboard/")).build();
    }

    // TensorBoard's pages only GET and POST (its multi-run data requests).
    @RequestMapping(value = "/jobs/{id}/tensorboard/**", method = {RequestMethod.GET, RequestMethod.POST})
    @Hidden // TensorBoard's own pages and data API, proxied: not part of Trainyard's contract
    @Operation(summary = "The job's TensorBoard: started on first use, stopped when idle; every TensorBoard URL under it")
    public void job(@PathVariable UUID id, HttpServletRequest request, HttpServletResponse response)
            throws IOException, InterruptedException {
        show(List.of(id), "/jobs/" + id + "/tensorboard", request, response);
    }

    private static final String UUID_PATTERN = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";
    private static final String JOB_IDS = "^" + UUID_PATTERN + "(," + UUID_PATTERN + "){0,19}$";

    @GetMapping("/tensorboard")
    @Operation(operationId = "compareTensorBoards", summary = "One TensorBoard comparing several jobs (redirects to /tensorboards/{ids}/)",
            responses = @ApiResponse(responseCode = "404", description = "A job named does not exist or is not visible to the caller",
                    content = @Content(mediaType = MediaType.APPLICATION_PROBLEM_JSON_VALUE, schema = @Schema(ref = "#/components/schemas/Problem"))))
    public ResponseEntity<Void> compareRedirect(
            @Parameter(description = "Comma-separated job ids (1 to 20)", schema = @Schema(pattern = JOB_IDS)) @RequestParam String jobs) {
        List<UUID> ids = parseIds(jobs);
        ids.forEach(id -> access.requireJob(id, Role.VIEWER));
        String joined = ids.stream().map(UUID::toString).collect(Collectors.joining(","));
        return ResponseEntity.status(302).location(URI.create("/tensorboards/" + joined + "/")).build();
    }

    @RequestMapping(value = "/tensorboards/{ids}/**", method = {RequestMethod.GET, RequestMethod.POST})
    @Hidden // TensorBoard's own pages and data API, proxied: not part of Trainyard's contract
    @Operation(summary = "The TensorBoard comparing the jobs named in the path; every TensorBoard URL under it")
    public void compare(@PathVariable String ids, HttpServletRequest request, HttpServletResponse response)
            throws IOException, InterruptedException {
        show(parseIds(ids), "/tensorboards/" + ids, request, response);
    }

    private void show(List<UUID> ids, String pathPrefix, HttpServletRequest request, HttpServletResponse response)
            throws IOException, InterruptedException {
        Map<String, UUID> runNames = new LinkedHashMap<>();
        for (UUID id : ids) {
            access.requireJob(id, Role.VIEWER);
            Job job = jobs.findById(id).orElseThrow(() -> new JobNotFoundException(id));
            runNames.put(ids.size() == 1 ? job.getJobName() : job.getJobName() + "_" + id.toString().substring(0, 8), id);
        }
        String path = request.getRequestURI().substring(pathPrefix.length());
        // New scalars are written out when the page loads and when TensorBoard's page refreshes its run list.
        boolean refresh = path.equals("/") || path.equals("/data/runs") || !tensorBoards.runningPrefixes().contains(pathPrefix);
        Map<String, Path> runs = new LinkedHashMap<>();
        runNames.forEach((name, id) -> runs.put(name, refresh ? export.export(id) : export.folder(id)));
        proxy.forward(tensorBoards.open(pathPrefix, runs), request, response);
    }

    private static List<UUID> parseIds(String ids) {
        List<String> parts = Arrays.stream(ids.split(",")).map(String::strip).filter(part -> !part.isEmpty()).toList();
        if (parts.isEmpty() || parts.size() > MAX_COMPARED) {
            throw new InvalidRequestException("jobs", "must name 1 to " + MAX_COMPARED + " job ids, comma-separated");
        }
        try {
            return parts.stream().map(UUID::fromString).distinct().sorted().toList();
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException("jobs", "must be job ids (UUIDs), comma-separated: " + e.getMessage());
        }
    }
}

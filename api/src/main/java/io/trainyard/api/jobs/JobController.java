package io.trainyard.api.jobs;

import java.net.URI;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

import io.swagger.v3.oas.annotations.Hidden;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.links.Link;
import io.swagger.v3.oas.annotations.links.LinkParameter;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.trainyard.api.projects.ProjectController;
import io.trainyard.backend.Backend;
import io.trainyard.backend.LaunchPlan;
import io.trainyard.dispatch.DispatchQueue;
import io.trainyard.job.Job;
import io.trainyard.job.JobQueries;
import io.trainyard.job.JobState;
import io.trainyard.job.JobTransitions;
import io.trainyard.security.Callers;
import io.trainyard.security.ProjectAccess;
import io.trainyard.security.Role;
import io.trainyard.security.audit.AuditInterceptor;
import io.trainyard.security.audit.Audited;
import io.trainyard.security.limits.RateLimited;
import io.trainyard.security.projects.Projects;
import io.trainyard.submission.JobSubmission;
import io.trainyard.submission.SubmissionAudit;
import io.trainyard.submission.SubmissionService;
import io.trainyard.submission.Submitter;
import io.trainyard.validation.InvalidRequestException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/jobs")
@Tag(name = "jobs", description = "Submit, list, cancel and retry trainer jobs")
public class JobController {

    private static final int MAX_PAGE = 500;
    private static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    /** Compiled once: {@code String.matches} compiled it again for every submission. */
    private static final Pattern PROJECT_NAME = Pattern.compile(ProjectController.NAME);

    private final SubmissionService submissions;
    private final JobQueries queries;
    private final JobTransitions transitions;
    private final ProjectAccess access;
    private final Projects projects;
    private final DispatchQueue queue;
    private final Map<String, Backend> backends = new LinkedHashMap<>();

    public JobController(SubmissionService submissions, JobQueries queries, JobTransitions transitions,
            ProjectAccess access, Projects projects, DispatchQueue queue, List<Backend> backends) {
        this.queue = queue;
        this.submissions = submissions;
        this.queries = queries;
        this.transitions = transitions;
        this.access = access;
        this.projects = projects;
        backends.forEach(backend -> this.backends.put(backend.name(), backend));
    }

    @PostMapping
    @Audited(SubmissionAudit.ACTION)
    @RateLimited(RateLimited.Kind.SUBMISSION)
    @Operation(operationId = "submitJob", summary = "Submit a job",
            description = "Validates the submission (every invalid field at once, as 422) and queues the job. With an "
                    + "Idempotency-Key, a repeat of the same body answers 200 with the job the first one made, so a "
                    + "client may retry a submission whose answer it lost; the same key with a different body is 409.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
                            schema = @Schema(implementation = JobSubmission.class),
                            examples = @ExampleObject(name = "inline", value = SubmissionExample.JSON))),
            responses = {
                @ApiResponse(responseCode = "201", description = "Queued: the new job",
                        headers = @Header(name = HttpHeaders.LOCATION, description = "The job's URL, /jobs/{id}",
                                schema = @Schema(type = "string", format = "uri-reference")),
                        links = {
                            @Link(name = "getJob", operationId = "getJob",
                                    parameters = @LinkParameter(name = "id", expression = "$response.body#/id")),
                            @Link(name = "cancelJob", operationId = "cancelJob",
                                    parameters = @LinkParameter(name = "id", expression = "$response.body#/id")),
                            @Link(name = "listJobEvents", operationId = "listJobEvents",
                                    parameters = @LinkParameter(name = "id", expression = "$response.body#/id")),
                            @Link(name = "getJobLogs", operationId = "getJobLogs",
                                    parameters = @LinkParameter(name = "id", expression = "$response.body#/id"))
                        }),
                @ApiResponse(responseCode = "200", description = "A repeat of an earlier submission with the same "
                        + "Idempotency-Key and body: the job that one made",
                        headers = @Header(name = HttpHeaders.LOCATION, description = "The job's URL, /jobs/{id}",
                                schema = @Schema(type = "string", format = "uri-reference"))),
                @ApiResponse(responseCode = "404", description = "No project of that name, or none the caller may see"),
                @ApiResponse(responseCode = "409", description = "The Idempotency-Key was used before with a different body")
            })
    public ResponseEntity<JobView> submit(@RequestBody JobSubmission submission,
            @Parameter(description = "Makes retries of the same submission safe: a fresh random value (a UUID) per "
                    + "submission, sent again with each retry of it", schema = @Schema(minLength = 1, maxLength = 255))
            @RequestHeader(value = IDEMPOTENCY_KEY, required = false) @Nullable String idempotencyKey, HttpServletRequest request) {
        Submitter submitter = submitter(SubmissionService.projectOf(submission), request);
        if (idempotencyKey != null && (idempotencyKey.isBlank() || idempotencyKey.length() > 255)) {
            throw new InvalidRequestException(IDEMPOTENCY_KEY, "must be 1-255 characters");
        }
        SubmissionService.Submitted submitted = submissions.submit(submission, submitter, idempotencyKey);
        if (submitted.audited()) {
            AuditInterceptor.recordedWithChange(request);
        }
        // The answer leaves the queue out: the job has just joined it, after the queue was last replayed, and a burst
        // of submissions must not replay it for answers that could not show the new job anyway (GET /jobs/{id} does).
        Job job = submitted.job();
        JobView view = JobView.of(job, links(backends.get(job.getBackend()), job), null, null);
        URI location = URI.create("/jobs/" + view.id());
        return ResponseEntity.status(submitted.created() ? HttpStatus.CREATED : HttpStatus.OK).location(location).body(view);
    }

    @PostMapping("/dry-run")
    @RateLimited(RateLimited.Kind.SUBMISSION)
    @Operation(operationId = "dryRunJob", summary = "Validate a submission and answer what it would launch, storing nothing",
            description = "The same checks as submitJob (422 listing every invalid field), then the backend's launch plan: "
                    + "placement, per-worker argv and environment, work folder, and for Vertex AI the exact CustomJob request.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE,
                            schema = @Schema(implementation = JobSubmission.class),
                            examples = @ExampleObject(name = "inline", value = SubmissionExample.JSON))),
            responses = {
                @ApiResponse(responseCode = "200", description = "What would be launched"),
                @ApiResponse(responseCode = "404", description = "No project of that name, or none the caller may see")
            })
    public LaunchPlan dryRun(@RequestBody JobSubmission submission, HttpServletRequest request) {
        return submissions.dryRun(submission, submitter(SubmissionService.projectOf(submission), request));
    }

    /** The query parameter dry runs had before {@code POST /jobs/dry-run}: a clear answer instead of a job. */
    @Hidden
    @PostMapping(params = "dryRun")
    public ResponseEntity<Void> dryRunParameter() {
        throw new InvalidRequestException("dryRun", "is not a parameter of POST /jobs: POST the submission to /jobs/dry-run");
    }

    @GetMapping
    @Operation(operationId = "listJobs", summary = "List jobs, newest first, with filters and cursor pagination")
    @ApiResponse(responseCode = "200", description = "A page of jobs")
    public JobPageView list(
            @Parameter(description = "Only jobs in these states (repeatable); empty: any state", allowEmptyValue = true)
            @RequestParam(required = false) @Nullable List<JobState> state,
            @Parameter(description = "Only jobs whose name starts with this") @RequestParam(required = false) @Nullable String namePrefix,
            @Parameter(description = "Only jobs with this label, as key=value (repeatable); empty: any labels", allowEmptyValue = true,
                    array = @ArraySchema(schema = @Schema(pattern = "^[^=]+=.*$")))
            @RequestParam(required = false) @Nullable List<String> label,
            @Parameter(description = "Only jobs of these projects (repeatable); default: every project the caller may see")
            @RequestParam(required = false) @Nullable List<String> project,
            @Parameter(description = "The nextCursor of the previous page; a value this server did not hand out is 422")
            @RequestParam(required = false) @Nullable String cursor,
            @Parameter(description = "Jobs per page; empty: the default", allowEmptyValue = true)
            @RequestParam(defaultValue = "50") @Min(1) @Max(MAX_PAGE) int limit) {
        Map<String, String> labels = new LinkedHashMap<>();
        if (label != null) {
            for (String pair : label) {
                int equals = pair.indexOf('=');
                if (equals <= 0) {
                    throw new InvalidRequestException("label", "'" + pair + "' must be key=value");
                }
                labels.put(pair.substring(0, equals), pair.substring(equals + 1));
            }
        }
        // Alone, an empty value (state=) binds as no list and means any state; among others Spring binds it as null.
        if (state != null && state.contains(null)) {
            throw new InvalidRequestException("state", "an empty value means any state; it cannot be one of several");
        }
        JobQueries.Page page = queries.list(new JobQueries.Filter(state, namePrefix, labels, projects(project)), cursor, limit);
        return new JobPageView(page.jobs().stream().map(this::view).toList(), page.nextCursor());
    }

    // Only a UUID-shaped id: /jobs/dry-run is no job (and OPTIONS on it must not advertise GET).
    @GetMapping("/{id:[0-9a-fA-F-]{36}}")
    @Operation(operationId = "getJob",
            summary = "A job: state, failure cause, exit code, attempt, timestamps, backend, placement, outputs")
    public JobView get(@PathVariable UUID id) {
        access.requireJob(id, Role.VIEWER);
        return view(queries.get(id));
    }

    @GetMapping("/{id}/events")
    @Operation(operationId = "listJobEvents", summary = "The job's state history, oldest first")
    public List<JobEventView> events(@PathVariable UUID id) {
        access.requireJob(id, Role.VIEWER);
        return queries.events(id).stream().map(JobEventView::of).toList();
    }

    @GetMapping("/{id}/configs")
    @Operation(operationId = "getJobConfigs", summary = "The task and resource configs the job runs with, as the YAML text stored at submission")
    public JobConfigsView configs(@PathVariable UUID id) {
        access.requireJob(id, Role.VIEWER);
        Job job = queries.get(id);
        return new JobConfigsView(job.getTaskConfig(), job.getResourceConfig());
    }

    @PostMapping("/{id}/cancel")
    @Audited("job.cancel")
    @Operation(operationId = "cancelJob", summary = "Cancel a job: at once if queued, else CANCELLING until its processes are gone",
            responses = {
                @ApiResponse(responseCode = "202", description = "Cancelled, or cancelling"),
                @ApiResponse(responseCode = "409", description = "The job has ended already")
            })
    public ResponseEntity<JobView> cancel(@PathVariable UUID id) {
        access.requireJob(id, Role.EDITOR);
        return ResponseEntity.accepted().body(view(transitions.cancel(id)));
    }

    @PostMapping("/{id}/retry")
    @Audited("job.retry")
    @Operation(operationId = "retryJob", summary = "Run an ended job again: same id, attempt + 1",
            responses = {
                @ApiResponse(responseCode = "202", description = "Queued again"),
                @ApiResponse(responseCode = "409", description = "The job has not ended")
            })
    public ResponseEntity<JobView> retry(@PathVariable UUID id) {
        access.requireJob(id, Role.EDITOR);
        return ResponseEntity.accepted().body(view(transitions.retry(id)));
    }

    /** Who submits: an editor of the job's project, who may name gs:// configs where the project allows it. */
    private Submitter submitter(String project, HttpServletRequest request) {
        // Checked before the project is looked up: a name no project can have (a NUL, say) never reaches the database.
        if (!PROJECT_NAME.matcher(project).matches()) {
            throw new InvalidRequestException("project", "must be 1-63 lowercase letters, digits or '-', starting with a letter or digit");
        }
        access.requireProject(project, Role.EDITOR);
        boolean remoteConfigs = projects.find(project).map(Projects.Project::allowGcsConfigs).orElse(false);
        return new Submitter(Callers.currentUser().name(), remoteConfigs, request.getRemoteAddr());
    }

    /** The projects to list: those asked for that the caller may see, else every one it may see (null: all). */
    private Set<String> projects(List<String> asked) {
        Set<String> visible = access.visibleProjects();
        if (asked == null || asked.isEmpty()) {
            return visible;
        }
        Set<String> chosen = new HashSet<>(asked);
        if (visible != null) {
            chosen.retainAll(visible);
        }
        return chosen;
    }

    /**
     * A job of a backend this server does not run (another replica's) has no links here. A queued job shows its
     * place in the queue and why it waits, naming no job of a project the caller may not see; a starting one, why its
     * backend's own queue holds it (Slurm's pending reason), when this server follows it.
     */
    JobView view(Job job) {
        DispatchQueue.Waiting waiting = job.getState() == JobState.QUEUED ? queue.of(job.getId()) : null;
        Backend backend = backends.get(job.getBackend());
        String reason = waiting != null ? waiting.reasonSeenBy(access::canSee)
                : job.getState() == JobState.STARTING && backend != null ? backend.waitingReason(job.getId()).orElse(null) : null;
        return JobView.of(job, links(backend, job), waiting == null ? null : waiting.position(), reason);
    }

    private static Map<String, String> links(Backend backend, Job job) {
        return backend == null ? Map.of() : backend.links(job);
    }
}

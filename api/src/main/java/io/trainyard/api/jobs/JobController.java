package io.trainyard.api.jobs;

import java.net.URI;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
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
import io.trainyard.security.audit.Audited;
import io.trainyard.security.limits.RateLimited;
import io.trainyard.security.projects.Projects;
import io.trainyard.submission.JobSubmission;
import io.trainyard.submission.SubmissionService;
import io.trainyard.submission.Submitter;
import io.trainyard.validation.InvalidRequestException;
import org.springframework.http.HttpStatus;
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
    @Audited("job.submit")
    @RateLimited(RateLimited.Kind.SUBMISSION)
    @Operation(summary = "Submit a job, or with dryRun=true validate it and answer its launch plan",
            description = "Answers 201 with Location for a new job; 200 with the same job when the Idempotency-Key "
                    + "was used before with the same body; 409 when it was used with a different body; 422 listing "
                    + "every invalid field.")
    public ResponseEntity<?> submit(@RequestBody JobSubmission submission,
            @RequestParam(defaultValue = "false") boolean dryRun,
            @Parameter(description = "Makes retries of the same submission safe")
            @RequestHeader(value = "Idempotency-Key", required = false) String idempotencyKey) {
        Submitter submitter = submitter(SubmissionService.projectOf(submission));
        if (dryRun) {
            LaunchPlan plan = submissions.dryRun(submission, submitter);
            return ResponseEntity.ok(plan);
        }
        if (idempotencyKey != null && (idempotencyKey.isBlank() || idempotencyKey.length() > 255)) {
            throw new InvalidRequestException("Idempotency-Key", "must be 1-255 characters");
        }
        SubmissionService.Submitted submitted = submissions.submit(submission, submitter, idempotencyKey);
        JobView view = view(submitted.job());
        URI location = URI.create("/jobs/" + view.id());
        return ResponseEntity.status(submitted.created() ? HttpStatus.CREATED : HttpStatus.OK).location(location).body(view);
    }

    @GetMapping
    @Operation(summary = "List jobs, newest first, with filters and cursor pagination")
    public JobPageView list(
            @Parameter(description = "Only jobs in these states") @RequestParam(required = false) List<JobState> state,
            @Parameter(description = "Only jobs whose name starts with this") @RequestParam(required = false) String namePrefix,
            @Parameter(description = "Only jobs with this label, as key=value (repeatable)") @RequestParam(required = false) List<String> label,
            @Parameter(description = "Only jobs of these projects (repeatable); default: every project the caller may see")
            @RequestParam(required = false) List<String> project,
            @Parameter(description = "The nextCursor of the previous page") @RequestParam(required = false) String cursor,
            @RequestParam(defaultValue = "50") int limit) {
        if (limit < 1 || limit > MAX_PAGE) {
            throw new InvalidRequestException("limit", "must be between 1 and " + MAX_PAGE);
        }
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
        JobQueries.Page page = queries.list(new JobQueries.Filter(state, namePrefix, labels, projects(project)), cursor, limit);
        return new JobPageView(page.jobs().stream().map(this::view).toList(), page.nextCursor());
    }

    @GetMapping("/{id}")
    @Operation(summary = "A job: state, failure cause, exit code, attempt, timestamps, backend, placement, outputs")
    public JobView get(@PathVariable UUID id) {
        access.requireJob(id, Role.VIEWER);
        return view(queries.get(id));
    }

    @GetMapping("/{id}/events")
    @Operation(summary = "The job's state history, oldest first")
    public List<JobEventView> events(@PathVariable UUID id) {
        access.requireJob(id, Role.VIEWER);
        return queries.events(id).stream().map(JobEventView::of).toList();
    }

    @GetMapping("/{id}/configs")
    @Operation(summary = "The task and resource configs the job runs with, as the YAML text stored at submission")
    public JobConfigsView configs(@PathVariable UUID id) {
        access.requireJob(id, Role.VIEWER);
        Job job = queries.get(id);
        return new JobConfigsView(job.getTaskConfig(), job.getResourceConfig());
    }

    @PostMapping("/{id}/cancel")
    @Audited("job.cancel")
    @Operation(summary = "Cancel a job: at once if queued, else CANCELLING until its processes are gone")
    public ResponseEntity<JobView> cancel(@PathVariable UUID id) {
        access.requireJob(id, Role.EDITOR);
        return ResponseEntity.accepted().body(view(transitions.cancel(id)));
    }

    @PostMapping("/{id}/retry")
    @Audited("job.retry")
    @Operation(summary = "Run an ended job again: same id, attempt + 1")
    public ResponseEntity<JobView> retry(@PathVariable UUID id) {
        access.requireJob(id, Role.EDITOR);
        return ResponseEntity.accepted().body(view(transitions.retry(id)));
    }

    /** Who submits: an editor of the job's project, who may name gs:// configs where the project allows it. */
    private Submitter submitter(String project) {
        access.requireProject(project, Role.EDITOR);
        boolean remoteConfigs = projects.find(project).map(Projects.Project::allowGcsConfigs).orElse(false);
        return new Submitter(Callers.currentUser().name(), remoteConfigs);
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
     * place in the queue and why it waits.
     */
    JobView view(Job job) {
        Backend backend = backends.get(job.getBackend());
        DispatchQueue.Waiting waiting = job.getState() == JobState.QUEUED ? queue.of(job.getId()) : null;
        return JobView.of(job, backend == null ? Map.of() : backend.links(job), waiting);
    }
}

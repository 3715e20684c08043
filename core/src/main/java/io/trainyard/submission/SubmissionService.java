package io.trainyard.submission;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Pattern;

import io.trainyard.backend.Backend;
import io.trainyard.backend.BackendDescription;
import io.trainyard.backend.LaunchPlan;
import io.trainyard.core.TrainyardProperties;
import io.trainyard.database.GroupCommit;
import io.trainyard.gigl.GiglCompatibility;
import io.trainyard.gigl.ResourceConfig;
import io.trainyard.gigl.ResourceConfigReader;
import io.trainyard.gigl.TaskConfig;
import io.trainyard.gigl.TaskConfigReader;
import io.trainyard.gigl.TemplateConfig;
import io.trainyard.gigl.TrainedModelMetadata;
import io.trainyard.gigl.TrainerResource;
import io.trainyard.job.Job;
import io.trainyard.job.JobRepository;
import io.trainyard.job.JobSpec;
import io.trainyard.job.JobTransitions;
import io.trainyard.launch.TrainerImages;
import io.trainyard.validation.ConflictException;
import io.trainyard.validation.InvalidRequestException;
import io.trainyard.validation.Violation;
import jakarta.annotation.PreDestroy;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Submission of jobs. A submission is fully validated (request fields, both configs, what the chosen backend
 * can run) before anything is stored, and every violation is reported at once. The configs are read here,
 * once: the job stores their typed reading beside the text, so nothing downstream parses YAML again.
 */
@Service
public class SubmissionService {

    private static final Pattern JOB_NAME = Pattern.compile(JobSubmission.JOB_NAME);
    private static final Pattern LABEL_KEY = Pattern.compile("[a-z][a-z0-9_-]{0,62}");
    private static final Pattern LABEL_VALUE = Pattern.compile("[a-z0-9_-]{0,63}");
    private static final int MAX_LABELS = 64;
    private static final Pattern IMAGE = Pattern.compile("[a-z0-9][a-z0-9._/:@-]{0,511}");
    private static final int DEFAULT_RETRY_BACKOFF_SECONDS = 30;
    /** Attempts in all when the submission names none: a job the infrastructure fails runs again, twice at most. */
    private static final int DEFAULT_MAX_ATTEMPTS = 3;
    public static final String DEFAULT_PROJECT = "default";

    /** The most submissions one transaction stores. */
    private static final int MAX_COMMIT_BATCH = 64;

    private final JobRepository jobs;
    private final GroupCommit<Stored, Job> commits;
    private final SubmissionAudit audit;
    private final List<Backend> backends;
    private final List<BackendDescription> modules;
    private final ConfigDocuments documents;
    private final TemplateConfig templates = new TemplateConfig();
    private final TrainyardProperties properties;
    private final Clock clock;

    /**
     * @param modules every backend module of this server, on or off
     * @param audit where each stored submission's audit record goes, in its job's transaction; none without an audit trail
     */
    public SubmissionService(JobRepository jobs, JobTransitions transitions, List<Backend> backends,
            ObjectProvider<BackendDescription> modules, ConfigDocuments documents, TrainyardProperties properties, Clock clock,
            ObjectProvider<SubmissionAudit> audit, PlatformTransactionManager transactionManager) {
        this.jobs = jobs;
        this.audit = audit.getIfAvailable();
        TransactionTemplate transaction = new TransactionTemplate(transactionManager);
        this.commits = new GroupCommit<>("submission-commits", MAX_COMMIT_BATCH, stored -> transaction.execute(status -> {
            List<Job> created = transitions.createAll(stored.stream().map(Stored::job).toList());
            if (this.audit != null) {
                this.audit.recordStored(stored);
            }
            return created;
        }));
        this.backends = backends;
        this.modules = modules.orderedStream().toList();
        this.documents = documents;
        this.properties = properties;
        this.clock = clock;
    }

    /**
     * The stored job and whether this call created it (false: an idempotent repeat); {@code audited}: whether its
     * audit record was written with it.
     */
    public record Submitted(Job job, boolean created, boolean audited) {
    }

    /** A job being stored, and who submitted it. */
    public record Stored(Job job, Submitter submitter) {
    }

    /** @param idempotencyKey the submitter's own key: a repeat of the same request answers the job it made */
    public Submitted submit(JobSubmission submission, Submitter submitter, String idempotencyKey) {
        String requestHash = hash(submission);
        if (idempotencyKey != null) {
            Optional<Job> earlier = findIdempotent(submitter, idempotencyKey, requestHash);
            if (earlier.isPresent()) {
                return new Submitted(earlier.get(), false, false);
            }
        }
        Job job = validate(submission, submitter, idempotencyKey, requestHash).job();
        try {
            return new Submitted(commits.write(new Stored(job, submitter)), true, audit != null);
        } catch (DataIntegrityViolationException e) {
            // Another request with the same key won the race; answer as its repeat.
            return findIdempotent(submitter, idempotencyKey, requestHash)
                    .map(existing -> new Submitted(existing, false, false))
                    .orElseThrow(() -> e);
        }
    }

    /** Stores what was handed over before the server stopped taking submissions. */
    @PreDestroy
    void close() throws InterruptedException {
        commits.close();
    }

    /** Validates and answers what would be launched, storing nothing. */
    public LaunchPlan dryRun(JobSubmission submission, Submitter submitter) {
        Validated validated = validate(submission, submitter, null, null);
        if (validated.job().getTask().launchesNothing()) {
            return new LaunchPlan(validated.backend().name(), Map.of("nothingToLaunch", TaskConfig.NOTHING_TO_LAUNCH), null, List.of());
        }
        return validated.backend().plan(validated.job());
    }

    private Optional<Job> findIdempotent(Submitter submitter, String idempotencyKey, String requestHash) {
        return jobs.findBySubmittedByAndIdempotencyKey(submitter.name(), idempotencyKey).map(existing -> {
            if (!existing.getRequestHash().equals(requestHash)) {
                throw new ConflictException("Idempotency-Key '" + idempotencyKey
                        + "' was already used for a different request (job " + existing.getId() + ")");
            }
            return existing;
        });
    }

    /** A valid job, not stored yet, and the backend that will run it. */
    private record Validated(Job job, Backend backend) {
    }

    private Validated validate(JobSubmission submission, Submitter submitter, String idempotencyKey, String requestHash) {
        List<Violation> violations = new ArrayList<>();
        checkRequestFields(submission, violations);
        TaskConfig task = null;
        ResourceConfig resource = null;
        ConfigDocuments.Document taskDocument = null;
        ConfigDocuments.Document resourceDocument = null;
        try {
            taskDocument = documents.resolve("taskConfig", submission.taskConfig(), "taskConfigUri", submission.taskConfigUri(), submitter);
            task = TaskConfigReader.read(taskDocument.config());
        } catch (InvalidRequestException e) {
            violations.addAll(e.violations());
        }
        try {
            resourceDocument = documents.resolve("resourceConfig", submission.resourceConfig(), "resourceConfigUri",
                    submission.resourceConfigUri(), submitter);
            resource = ResourceConfigReader.read(resourceDocument.config(), (field, uri) -> documents.fetch(field, uri, submitter));
        } catch (InvalidRequestException e) {
            violations.addAll(e.violations());
        }
        if (task != null && resource != null) {
            violations.addAll(GiglCompatibility.check(task, resource));
        }
        Backend backend = resource == null || resource.trainer() == null ? null
                : backendFor(submission.backend(), resource.trainer(), violations);
        if (backend != null && submission.gpus() != null && !backend.description().gpuRequests()) {
            violations.add(new Violation("gpus", "the " + backend.name() + " backend takes no GPU count: its jobs' "
                    + "machines and GPUs come from their resource config"));
        }
        if (backend != null && submission.nodes() != null && submission.nodes() > 1 && !backend.description().multiHost()) {
            violations.add(new Violation("nodes", "the " + backend.name() + " backend runs a job on one host"));
        }
        if (!violations.isEmpty() || backend == null) {
            throw new InvalidRequestException(violations);
        }
        // The trainer receives the config as GiGL's config populator completes a template: outputs filled.
        TemplateConfig.Frozen frozen = templates.fill(taskDocument.config(), task,
                TrainedModelMetadata.giglLayoutUnder(backend.trainerAssetFolder(submission.jobName(), resource)));
        JobSubmission.RetryPolicy retry = submission.retryPolicy();
        JobSpec spec = new JobSpec(submission.jobName(), backend.name(), projectOf(submission), frozen.task(), resource, frozen.yaml(),
                resourceDocument.config().yaml(), taskDocument.source(), resourceDocument.source(),
                submission.labels() == null ? Map.of() : new TreeMap<>(submission.labels()),
                submission.priority() == null ? 0 : submission.priority(),
                Boolean.TRUE.equals(submission.requireGpus()) || submission.gpus() != null, timeoutSeconds(submission, resource),
                submission.gpus() != null ? submission.gpus() : resource.trainer().workers(),
                submission.nodes() == null ? 0 : submission.nodes(),
                retry == null || retry.maxAttempts() == null ? DEFAULT_MAX_ATTEMPTS : retry.maxAttempts(),
                retry == null || retry.backoffSeconds() == null ? DEFAULT_RETRY_BACKOFF_SECONDS : retry.backoffSeconds(),
                new TrainerImages(blankToNull(submission.cpuDockerUri()), blankToNull(submission.cudaDockerUri())));
        Job job = new Job(UUID.randomUUID(), spec, submitter.name(), idempotencyKey, requestHash, clock.instant());
        backend.validate(job);
        job.recordOutputs(backend.outputUris(job));
        return new Validated(job, backend);
    }

    /** The project a submission names, the default project when it names none. */
    public static String projectOf(JobSubmission submission) {
        return submission.project() == null || submission.project().isBlank() ? DEFAULT_PROJECT : submission.project();
    }

    /**
     * The backend the submission names, else the first made for its resource config, else the first standing in for
     * one that is (Vertex AI's graph-store configs run on the local pool when Vertex AI is off).
     */
    private Backend backendFor(String named, TrainerResource trainer, List<Violation> violations) {
        if (named != null) {
            Backend backend = backends.stream().filter(candidate -> candidate.name().equals(named)).findFirst().orElse(null);
            if (backend == null) {
                violations.add(new Violation("backend", "this server has no backend '" + named + "'; it has " + offered()));
            } else if (!backend.runs(trainer)) {
                violations.add(new Violation("backend", "the " + named + " backend runs "
                        + String.join(" or ", backend.description().runs()) + " jobs, not " + trainer.kind()));
                return null;
            }
            return backend;
        }
        Optional<Backend> chosen = backends.stream().filter(backend -> backend.madeFor(trainer)).findFirst()
                .or(() -> backends.stream().filter(backend -> backend.runs(trainer)).findFirst());
        if (chosen.isPresent()) {
            return chosen.get();
        }
        String off = String.join(" or ", modules.stream().filter(module -> module.resourceConfigs().contains(trainer.kind()))
                .map(BackendDescription::name).toList());
        violations.add(new Violation("resourceConfig.trainerResourceConfig." + trainer.kind(),
                "no backend of this server runs " + trainer.kind() + " jobs; it has " + offered()
                        + (off.isEmpty() ? "" : ". The " + off + " backend would, but is off: the README's section on it "
                                + "says how to turn it on")));
        return null;
    }

    /** The server's backends and what each runs, for messages. */
    private String offered() {
        return String.join(", ", backends.stream().map(backend -> backend.name() + " (runs "
                + String.join(", ", backend.description().runs()) + ")").toList());
    }

    private long timeoutSeconds(JobSubmission submission, ResourceConfig resource) {
        if (submission.timeoutSeconds() != null) {
            return submission.timeoutSeconds();
        }
        Long configured = resource.trainer().timeoutSeconds();
        if (configured != null) {
            return configured;
        }
        return properties.defaultJobTimeout().toSeconds();
    }

    private static void checkRequestFields(JobSubmission submission, List<Violation> violations) {
        if (submission.jobName() == null || submission.jobName().isBlank()) {
            violations.add(new Violation("jobName", "is required"));
        } else if (!JOB_NAME.matcher(submission.jobName()).matches()) {
            violations.add(new Violation("jobName", "must follow GiGL's job-name rule: a lowercase letter, then lowercase "
                    + "letters, digits or '_', ending in a letter or digit, at most 51 characters"));
        }
        Map<String, String> labels = submission.labels();
        if (labels != null) {
            if (labels.size() > MAX_LABELS) {
                violations.add(new Violation("labels", "at most " + MAX_LABELS + " labels, got " + labels.size()));
            }
            labels.forEach((key, value) -> {
                if (!LABEL_KEY.matcher(key).matches()) {
                    violations.add(new Violation("labels." + key,
                            "key must be lowercase letters, digits, '_' or '-', start with a letter, at most 63 characters"));
                }
                if (value == null || !LABEL_VALUE.matcher(value).matches()) {
                    violations.add(new Violation("labels." + key, "value must be lowercase letters, digits, '_' or '-', at most 63 characters"));
                }
            });
        }
        checkBetween("priority", submission.priority(), -JobSubmission.MAX_PRIORITY, JobSubmission.MAX_PRIORITY, violations);
        checkBetween("gpus", submission.gpus(), 1, JobSubmission.MAX_GPUS, violations);
        checkBetween("nodes", submission.nodes(), 1, JobSubmission.MAX_NODES, violations);
        checkBetween("timeoutSeconds", submission.timeoutSeconds(), 1, JobSubmission.MAX_TIMEOUT_SECONDS, violations);
        checkImage("cpuDockerUri", submission.cpuDockerUri(), violations);
        checkImage("cudaDockerUri", submission.cudaDockerUri(), violations);
        JobSubmission.RetryPolicy retry = submission.retryPolicy();
        if (retry != null) {
            checkBetween("retryPolicy.maxAttempts", retry.maxAttempts(), 1, JobSubmission.MAX_ATTEMPTS, violations);
            checkBetween("retryPolicy.backoffSeconds", retry.backoffSeconds(), 0, JobSubmission.MAX_BACKOFF_SECONDS, violations);
        }
    }

    /** An optional number, when given, within [min, max]. */
    private static void checkBetween(String field, Number value, long min, long max, List<Violation> violations) {
        if (value != null && (value.longValue() < min || value.longValue() > max)) {
            violations.add(new Violation(field, "must be between " + min + " and " + max));
        }
    }

    private static void checkImage(String field, String image, List<Violation> violations) {
        if (image != null && !image.isBlank() && !IMAGE.matcher(image).matches()) {
            violations.add(new Violation(field, "must be a container image reference such as "
                    + "us-docker.pkg.dev/project/repo/trainer:tag, without spaces, at most 512 characters"));
        }
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }

    /** A digest of the request as submitted, to tell an idempotent repeat from a different request. */
    private static String hash(JobSubmission submission) {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
        Map<String, String> labels = submission.labels() == null ? null : new TreeMap<>(submission.labels());
        List<Object> fields = new ArrayList<>(Arrays.asList(projectOf(submission), submission.jobName(), submission.taskConfig(),
                submission.taskConfigUri(), submission.resourceConfig(), submission.resourceConfigUri(), labels, submission.priority(),
                submission.gpus(), submission.requireGpus(), submission.timeoutSeconds(), submission.retryPolicy(),
                submission.cpuDockerUri(), submission.cudaDockerUri()));
        // A field added later counts only when given, so a repeat of a request stored before keeps its digest.
        if (submission.nodes() != null) {
            fields.add("nodes=" + submission.nodes());
        }
        for (Object field : fields) {
            // Length-prefixed, so no two different requests concatenate to the same bytes.
            byte[] bytes = String.valueOf(field).getBytes(StandardCharsets.UTF_8);
            digest.update(Integer.toString(bytes.length).getBytes(StandardCharsets.US_ASCII));
            digest.update((byte) ':');
            digest.update(bytes);
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}

package io.trainyard.backend.vertexai;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

import com.google.cloud.aiplatform.v1.CreateCustomJobRequest;
import com.google.cloud.aiplatform.v1.CustomJob;
import com.google.cloud.aiplatform.v1.CustomJobName;
import com.google.protobuf.Timestamp;
import io.trainyard.job.FailureCause;
import io.trainyard.job.JobState;
import io.trainyard.job.JobTransitions;
import io.trainyard.job.RetriedStateChange;
import io.trainyard.job.RunOutcome;
import io.trainyard.logs.LogSink;
import io.trainyard.logs.LogWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows one job attempt on Vertex AI without blocking anything else: creates its CustomJob once, looks
 * at it with a backoff that doubles while nothing changes, copies its logs, TensorBoard scalars and machine use, forwards a cancel (the job
 * stays CANCELLING until Vertex AI confirms, and one that finishes anyway keeps its real end state),
 * cancels it past its timeout, and records how it ended.
 */
final class VertexRun {

    private static final Logger log = LoggerFactory.getLogger(VertexRun.class);

    /** What the run needs from its backend: the Vertex, Logging, Storage and Monitoring calls and the log store. */
    record Services(VertexJobs vertex, LogIngesters logs, ScalarReaders scalars, UsageReaders usage, JobTransitions transitions,
            LogWriter logWriter, VertexAiProperties properties) {
    }

    /** Opens the log ingester of a CustomJob, resuming where the attempt's stored lines end. */
    interface LogIngesters {
        CloudLogIngester open(String project, String customJobId, UUID jobId, int attempt, LogSink sink);
    }

    private final Services services;

    /** Opens the reader of a job's TensorBoard event files on Cloud Storage, resuming after the stored records. */
    interface ScalarReaders {
        CloudEventReader open(String project, String tensorboardLogsUri, UUID jobId, int attempt);
    }

    /** Opens the reader of a CustomJob's machine use in Cloud Monitoring, resuming after the stored samples. */
    interface UsageReaders {
        CloudMonitoringReader open(String project, String customJobId, UUID jobId, int attempt, Instant startedAt);
    }

    private final UUID jobId;
    private final int attempt;
    private final String tensorboardLogsUri;
    private final CreateCustomJobRequest request;
    private final Runnable prepare;
    private final Instant startedAt;
    private final Duration timeout;
    private volatile boolean cancelRequested;
    private boolean cancelSent;
    private boolean timedOut;

    /**
     * @param tensorboardLogsUri where the trainer writes TensorBoard event files (gs://), read while it runs; or null
     * @param prepare uploads the configs and clears old outputs; run only when the CustomJob does not exist yet
     */
    VertexRun(Services services, UUID jobId, int attempt, String tensorboardLogsUri, CreateCustomJobRequest request,
            Runnable prepare, Instant startedAt, Duration timeout) {
        this.services = services;
        this.jobId = jobId;
        this.attempt = attempt;
        this.tensorboardLogsUri = tensorboardLogsUri;
        this.request = request;
        this.prepare = prepare;
        this.startedAt = startedAt;
        this.timeout = timeout;
    }

    UUID jobId() {
        return jobId;
    }

    void requestCancel() {
        cancelRequested = true;
    }

    /** Runs until the attempt has ended and is recorded, or the thread is interrupted (shutdown). */
    void follow(boolean cancelling) throws InterruptedException {
        cancelRequested |= cancelling;
        CustomJob job;
        try {
            Optional<CustomJob> existing = services.vertex().find(request.getParent(), jobId, attempt);
            if (existing.isEmpty() && cancelRequested) {
                settle(null, RunOutcome.cancelled(null));
                return;
            }
            if (existing.isEmpty()) {
                prepare.run();
            }
            job = existing.isPresent() ? existing.get() : services.vertex().createOnce(request, jobId, attempt);
        } catch (RuntimeException e) {
            log.warn("Creating the CustomJob of job {} failed", jobId, e);
            settle(null, RunOutcome.failed(FailureCause.LAUNCH_ERROR, null, "Vertex AI refused the CustomJob: " + e.getMessage()));
            return;
        }
        CustomJobName name = CustomJobName.parse(job.getName());
        LogSink sink = services.logWriter().open(jobId, attempt);
        CloudLogIngester logs = services.logs().open(name.getProject(), name.getCustomJob(), jobId, attempt, sink);
        CloudEventReader scalars = tensorboardLogsUri == null || !tensorboardLogsUri.startsWith("gs://") ? null
                : services.scalars().open(name.getProject(), tensorboardLogsUri, jobId, attempt);
        CloudMonitoringReader usage = null;
        long usageReadNanos = System.nanoTime() - services.properties().monitoringReadInterval().toNanos();
        Duration minWait = services.properties().pollInterval();
        Duration wait = minWait;
        boolean markedRunning = false;
        VertexStates.Phase last = null;
        while (true) {
            VertexStates.Phase phase = VertexStates.of(job);
            if (phase instanceof VertexStates.Running && !markedRunning) {
                String runState = VertexLinks.runState(job);
                Optional<JobState> now = persist(() -> services.transitions().markRunning(jobId, attempt, runState));
                markedRunning = true;
                if (now.isEmpty() || now.get() == JobState.CANCELLING) {
                    cancelRequested = true;
                }
            }
            if (usage == null && job.hasStartTime()) {
                // Its machines' use is recorded once it runs; a series' step is milliseconds since Vertex AI started it.
                usage = services.usage().open(name.getProject(), name.getCustomJob(), jobId, attempt, instant(job.getStartTime()));
            }
            if (phase instanceof VertexStates.Ended ended) {
                Thread.sleep(services.properties().logSettleTime());
                ingest(logs, Instant.now());
                readScalars(scalars, true);
                readUsage(usage, Instant.now());
                services.logWriter().close(sink);
                settle(job.getName(), outcome(ended.outcome()));
                return;
            }
            ingest(logs, Instant.now().minus(services.properties().logSettleTime()));
            readScalars(scalars, false);
            if (System.nanoTime() - usageReadNanos >= services.properties().monitoringReadInterval().toNanos()) {
                readUsage(usage, Instant.now().minus(services.properties().monitoringSettleTime()));
                usageReadNanos = System.nanoTime();
            }
            if (!timedOut && Duration.between(startedAt, Instant.now()).compareTo(timeout) > 0) {
                timedOut = true;
                cancelRequested = true;
            }
            if (cancelRequested && !cancelSent) {
                try {
                    services.vertex().cancel(job.getName());
                    cancelSent = true;
                    wait = minWait;
                } catch (RuntimeException e) {
                    log.warn("Cancelling CustomJob {} failed, will retry: {}", job.getName(), e.toString());
                }
            }
            boolean changed = last == null || !last.getClass().equals(phase.getClass());
            last = phase;
            wait = changed ? minWait : min(wait.multipliedBy(2), services.properties().maxPollInterval());
            Thread.sleep(cancelRequested && !cancelSent ? minWait : wait);
            try {
                job = services.vertex().get(job.getName());
            } catch (RuntimeException e) {
                log.warn("Looking at CustomJob {} failed, will retry: {}", job.getName(), e.toString());
            }
        }
    }

    /** A run cancelled because it ran past its timeout failed with TIMEOUT; any other end is what Vertex says. */
    private RunOutcome outcome(RunOutcome vertexOutcome) {
        if (timedOut && vertexOutcome.state() == JobState.CANCELLED) {
            return RunOutcome.failed(FailureCause.TIMEOUT, null, "ran past its timeout of " + timeout.toSeconds() + " s and was cancelled");
        }
        return vertexOutcome;
    }

    private void ingest(CloudLogIngester logs, Instant until) throws InterruptedException {
        try {
            logs.ingestUntil(until);
        } catch (RuntimeException e) {
            log.warn("Reading the Cloud Logging entries of job {} failed, will retry: {}", jobId, e.toString());
        }
    }

    /** Stores the new points of the event files; a failure is retried at the next look. */
    private void readScalars(CloudEventReader scalars, boolean complete) throws InterruptedException {
        if (scalars == null) {
            return;
        }
        try {
            scalars.readAll(complete);
        } catch (IOException | RuntimeException e) {
            log.warn("Reading the TensorBoard event files of job {} failed, will retry: {}", jobId, e.toString());
        }
    }

    /** Stores what Cloud Monitoring recorded of the machines' use; a failure is retried at the next read. */
    private void readUsage(CloudMonitoringReader usage, Instant until) throws InterruptedException {
        if (usage == null) {
            return;
        }
        try {
            usage.readUntil(until);
        } catch (RuntimeException e) {
            log.warn("Reading the Cloud Monitoring metrics of job {} failed, will retry: {}", jobId, e.toString());
        }
    }

    private void settle(String customJob, RunOutcome outcome) throws InterruptedException {
        if (customJob != null) {
            log.info("Job {} attempt {} ({}) ended: {}", jobId, attempt, customJob, outcome.state());
        }
        persist(() -> services.transitions().finish(jobId, attempt, outcome));
    }

    /** The CustomJob is real: its state change is retried until the database takes it. */
    private <T> T persist(Supplier<T> change) throws InterruptedException {
        return RetriedStateChange.untilStored(jobId, change);
    }

    private static Instant instant(Timestamp timestamp) {
        return Instant.ofEpochSecond(timestamp.getSeconds(), timestamp.getNanos());
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}

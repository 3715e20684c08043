package io.trainyard.backend.local.agents;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Supplier;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.trainyard.follow.JobWakeUps;
import io.trainyard.job.FailureCause;
import io.trainyard.job.Job;
import io.trainyard.job.JobRepository;
import io.trainyard.job.JobState;
import io.trainyard.job.JobTransitions;
import io.trainyard.job.RunOutcome;
import io.trainyard.protocol.Ended;
import io.trainyard.protocol.LogAck;
import io.trainyard.protocol.LogBatch;
import io.trainyard.protocol.MetricAck;
import io.trainyard.protocol.MetricBatch;
import io.trainyard.protocol.RunEnd;
import io.trainyard.protocol.Started;
import io.trainyard.protocol.StartedAck;
import io.trainyard.protocol.SystemMetricBatch;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What agents report about their runs: started, log, metric and system metric batches, ended. Each report is fenced twice: the
 * agent's epoch must be its current one (a replaced or lost agent process changes nothing) and the attempt
 * must be the job's current one, placed on that agent (a stale run cannot touch a newer attempt).
 */
@Service
public class AgentReports {

    private final JobRepository jobs;
    private final JobTransitions transitions;
    private final ShippedLogs shippedLogs;
    private final ShippedMetrics shippedMetrics;
    private final JobWakeUps wakeUps;
    private final TransactionTemplate transaction;
    private final Timer dispatchLatency;
    private final JdbcClient jdbc;

    public AgentReports(JobRepository jobs, JobTransitions transitions, ShippedLogs shippedLogs,
            ShippedMetrics shippedMetrics, JobWakeUps wakeUps, PlatformTransactionManager transactionManager, MeterRegistry registry,
            JdbcClient jdbc) {
        this.jdbc = jdbc;
        this.jobs = jobs;
        this.transitions = transitions;
        this.shippedLogs = shippedLogs;
        this.shippedMetrics = shippedMetrics;
        this.wakeUps = wakeUps;
        this.transaction = new TransactionTemplate(transactionManager);
        this.dispatchLatency = Timer.builder("trainyard.jobs.dispatch.latency")
                .description("From a job's claim to its trainer processes running")
                .publishPercentiles(0.5, 0.99).register(registry);
    }

    public StartedAck started(String agentId, UUID jobId, int attempt, Started started) {
        return transaction.execute(status -> {
            Job job = lockCurrent(agentId, started.epoch(), jobId, attempt);
            Instant claimedAt = job.getState() == JobState.STARTING ? job.getUpdatedAt() : null;
            JobState now = transitions.markRunning(jobId, attempt, started.runState(), started.outputs())
                    .orElseThrow();
            if (claimedAt != null) {
                dispatchLatency.record(Duration.between(claimedAt, Instant.now()));
            }
            return new StartedAck(now == JobState.CANCELLING);
        });
    }

    public LogAck logs(String agentId, UUID jobId, int attempt, LogBatch batch) {
        return storeBatch(agentId, batch.epoch(), jobId, attempt, () -> shippedLogs.accept(jobId, attempt, batch));
    }

    public MetricAck metrics(String agentId, UUID jobId, int attempt, MetricBatch batch) {
        return storeBatch(agentId, batch.epoch(), jobId, attempt, () -> shippedMetrics.accept(jobId, attempt, batch));
    }

    public MetricAck systemMetrics(String agentId, UUID jobId, int attempt, SystemMetricBatch batch) {
        return storeBatch(agentId, batch.epoch(), jobId, attempt, () -> shippedMetrics.accept(jobId, attempt, batch));
    }

    /** Stores a batch of the run under the job's row lock, then wakes the job's followers. */
    private <T> T storeBatch(String agentId, long epoch, UUID jobId, int attempt, Supplier<T> store) {
        T ack = transaction.execute(status -> {
            lockCurrentRun(agentId, epoch, jobId, attempt);
            return store.get();
        });
        wakeUps.signal(jobId);
        return ack;
    }

    public void ended(String agentId, UUID jobId, int attempt, Ended ended) {
        transaction.executeWithoutResult(status -> {
            lockCurrentRun(agentId, ended.epoch(), jobId, attempt);
            transitions.finish(jobId, attempt, outcome(ended.end()));
        });
    }

    /** What the agent saw, as the job's end state and failure cause. */
    static RunOutcome outcome(RunEnd end) {
        return switch (end.result()) {
            case SUCCEEDED -> new RunOutcome(JobState.SUCCEEDED, null, end.exitCode(), end.message());
            case CANCELLED -> RunOutcome.cancelled(end.exitCode());
            case EXITED_WITH_ERROR -> RunOutcome.failed(FailureCause.USER_CODE, end.exitCode(), end.message());
            case LAUNCH_FAILED -> RunOutcome.failed(FailureCause.LAUNCH_ERROR, end.exitCode(), end.message());
            case TIMED_OUT -> RunOutcome.failed(FailureCause.TIMEOUT, end.exitCode(), end.message());
            case LOST -> RunOutcome.failed(FailureCause.INFRASTRUCTURE, end.exitCode(), end.message());
        };
    }

    /**
     * Locks the job's row after checking that the report comes from the agent's current epoch about its current attempt,
     * in one statement that loads nothing: a log or metric batch needs only the lock, and loading the job and the agent
     * as entities (their JSON columns, the job's configs) was most of what the server allocated per batch while a job
     * printed a burst.
     */
    private void lockCurrentRun(String agentId, long epoch, UUID jobId, int attempt) {
        boolean current = jdbc.sql("""
                select 1 from jobs j join agents a on a.id = j.node_id
                where j.id = ? and j.attempt = ? and j.state in ('STARTING', 'RUNNING', 'CANCELLING') and j.node_id = ?
                  and a.epoch = ? and a.state = 'ACTIVE'
                for update of j""")
                .params(jobId, attempt, agentId, epoch)
                .query(Integer.class).optional().isPresent();
        if (!current) {
            throw new StaleAgentException("agent " + agentId + " epoch " + epoch + " is no longer current, or job " + jobId
                    + " attempt " + attempt + " is no longer active on it");
        }
    }

    /** {@link #lockCurrentRun}, then the job itself, for a report that reads it. */
    private Job lockCurrent(String agentId, long epoch, UUID jobId, int attempt) {
        lockCurrentRun(agentId, epoch, jobId, attempt);
        return jobs.findById(jobId).orElseThrow();
    }
}

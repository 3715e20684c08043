package io.trainyard.backend.local.agents;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.trainyard.backend.local.placement.AgentPlacement;
import io.trainyard.backend.local.placement.HostShare;
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
 * must be the job's current one, placed on that agent (a stale run cannot touch a newer attempt). A job spanning
 * several agents gets the reports of each; its lines all go into the job's one numbered log.
 */
@Service
public class AgentReports {

    /** The job's row, if the report is current (see {@link #lockCurrentRun}), with the sending host. */
    private static final String LOCK_CURRENT_RUN = """
            select case when j.node_id = a.id then 0 else
                     (select m.host from jsonb_array_elements(j.placement -> 'moreHosts') with ordinality m(share, host)
                      where m.share ->> 'node' = a.id limit 1)::int end,
                   coalesce(jsonb_array_length(j.placement -> 'moreHosts'), 0) > 0
            from jobs j join agents a on a.id = ?
            where j.id = ? and j.attempt = ? and j.state in (%s)
              and (j.node_id = a.id or j.placement -> 'moreHosts' @> jsonb_build_array(jsonb_build_object('node', a.id)))
              and a.epoch = ? and a.state = 'ACTIVE'
            for update of j""".formatted(LocalRuns.ACTIVE_STATES);

    private final JobRepository jobs;
    private final JobTransitions transitions;
    private final ShippedLogs shippedLogs;
    private final ShippedMetrics shippedMetrics;
    private final JobWakeUps wakeUps;
    private final TransactionTemplate transaction;
    private final Timer dispatchLatency;
    private final JdbcClient jdbc;
    private final GangHosts gangHosts;
    private final AgentWork agentWork;

    public AgentReports(JobRepository jobs, JobTransitions transitions, ShippedLogs shippedLogs,
            ShippedMetrics shippedMetrics, JobWakeUps wakeUps, PlatformTransactionManager transactionManager, MeterRegistry registry,
            JdbcClient jdbc, GangHosts gangHosts, AgentWork agentWork) {
        this.jdbc = jdbc;
        this.gangHosts = gangHosts;
        this.agentWork = agentWork;
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

    /**
     * The host's processes are started. The first host's start makes the job RUNNING; on a job spanning hosts it also
     * tells where the world meets, and the other hosts are woken to start theirs.
     */
    public StartedAck started(String agentId, UUID jobId, int attempt, Started started) {
        List<String> toWake = new ArrayList<>();
        StartedAck ack = transaction.execute(status -> {
            ReportingHost host = lockCurrentRun(agentId, started.epoch(), jobId, attempt);
            Job job = jobs.findById(jobId).orElseThrow();
            if (host.ofGang()) {
                gangHosts.started(jobId, attempt, host.index(), agentId, started.runState(),
                        host.index() == 0 ? started.rendezvous() : null);
            }
            if (host.index() > 0) {
                return new StartedAck(job.getState() == JobState.CANCELLING);
            }
            Instant claimedAt = job.getState() == JobState.STARTING ? job.getUpdatedAt() : null;
            JobState now = transitions.markRunning(jobId, attempt, started.runState(), started.outputs(), started.processesStartedAt())
                    .orElseThrow();
            if (claimedAt != null) {
                dispatchLatency.record(Duration.between(claimedAt, Instant.now()));
            }
            if (host.ofGang()) {
                AgentPlacement.of(job.getPlacement()).moreHosts().forEach(share -> toWake.add(share.node()));
            }
            return new StartedAck(now == JobState.CANCELLING);
        });
        toWake.forEach(agentWork::wake);
        return ack;
    }

    /** A batch of lines, tagged with the agent's id when the job spans several agents. */
    public LogAck logs(String agentId, UUID jobId, int attempt, LogBatch batch) {
        return storeBatch(agentId, batch.epoch(), jobId, attempt,
                host -> shippedLogs.accept(jobId, attempt, host.index(), host.ofGang() ? agentId : null, batch));
    }

    public MetricAck metrics(String agentId, UUID jobId, int attempt, MetricBatch batch) {
        return storeBatch(agentId, batch.epoch(), jobId, attempt, host -> shippedMetrics.accept(jobId, attempt, host.index(), batch));
    }

    public MetricAck systemMetrics(String agentId, UUID jobId, int attempt, SystemMetricBatch batch) {
        return storeBatch(agentId, batch.epoch(), jobId, attempt, host -> shippedMetrics.accept(jobId, attempt, host.index(), batch));
    }

    /** Stores a batch of the run (given the sending host) under the job's row lock, then wakes the job's followers. */
    private <T> T storeBatch(String agentId, long epoch, UUID jobId, int attempt, Function<ReportingHost, T> store) {
        T ack = transaction.execute(status -> store.apply(lockCurrentRun(agentId, epoch, jobId, attempt)));
        wakeUps.signal(jobId);
        return ack;
    }

    /**
     * The host's processes ended. A job on one host ends with them. A job spanning hosts succeeds once every host's
     * processes exited 0, and ends at the first host that ends otherwise (failed, cancelled, lost): the other hosts
     * are woken, and told at that heartbeat to kill theirs.
     */
    public void ended(String agentId, UUID jobId, int attempt, Ended ended) {
        List<String> toWake = new ArrayList<>();
        transaction.executeWithoutResult(status -> {
            ReportingHost host = lockCurrentRun(agentId, ended.epoch(), jobId, attempt);
            RunOutcome outcome = outcome(ended.end());
            if (!host.ofGang()) {
                transitions.finish(jobId, attempt, outcome);
                return;
            }
            Job job = jobs.findById(jobId).orElseThrow();
            List<HostShare> hosts = AgentPlacement.of(job.getPlacement()).hosts(job.getSlots());
            if (outcome.state() == JobState.SUCCEEDED) {
                if (gangHosts.succeeded(jobId, attempt, host.index()) == hosts.size()) {
                    transitions.finish(jobId, attempt, outcome);
                }
                return;
            }
            transitions.finish(jobId, attempt, new RunOutcome(outcome.state(), outcome.cause(), outcome.exitCode(),
                    "host " + host.index() + " of " + hosts.size() + " (agent " + agentId + "): " + outcome.message()));
            hosts.stream().map(HostShare::node).filter(node -> !node.equals(agentId)).forEach(toWake::add);
        });
        toWake.forEach(agentWork::wake);
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
     * Which of a job's hosts a report comes from: {@code index} 0 for the job's node, then the placement's moreHosts
     * from 1; {@code ofGang}: the job spans several agents.
     */
    private record ReportingHost(int index, boolean ofGang) {
    }

    /**
     * Locks the job's row after checking that the report comes from the agent's current epoch about its current attempt,
     * placed on that agent, in one statement that loads nothing: a log or metric batch needs only the lock, and loading
     * the job and the agent as entities (their JSON columns, the job's configs) was most of what the server allocated
     * per batch while a job printed a burst.
     */
    private ReportingHost lockCurrentRun(String agentId, long epoch, UUID jobId, int attempt) {
        return jdbc.sql(LOCK_CURRENT_RUN)
                .params(agentId, jobId, attempt, epoch)
                .query((rs, row) -> new ReportingHost(rs.getInt(1), rs.getBoolean(2))).optional()
                .orElseThrow(() -> new StaleAgentException("agent " + agentId + " epoch " + epoch + " is no longer current, or job "
                        + jobId + " attempt " + attempt + " is no longer active on it"));
    }
}

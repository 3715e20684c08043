package io.trainyard.backend.local;

import java.io.IOException;
import java.time.Duration;
import java.util.UUID;

import io.trainyard.agent.connection.ServerConnection;
import io.trainyard.agent.connection.StaleRunException;
import io.trainyard.backend.local.agents.AgentReports;
import io.trainyard.backend.local.agents.AgentWork;
import io.trainyard.backend.local.agents.StaleAgentException;
import io.trainyard.protocol.Ended;
import io.trainyard.protocol.Heartbeat;
import io.trainyard.protocol.LogAck;
import io.trainyard.protocol.LogBatch;
import io.trainyard.protocol.MetricAck;
import io.trainyard.protocol.MetricBatch;
import io.trainyard.protocol.Registered;
import io.trainyard.protocol.Registration;
import io.trainyard.protocol.Started;
import io.trainyard.protocol.StartedAck;
import io.trainyard.protocol.SystemMetricBatch;
import io.trainyard.protocol.Work;
import io.trainyard.security.audit.AuditLog;

/**
 * The server's own agent calling the agent protocol's services in the server's process: the same messages and the same
 * transactions as over HTTP ({@code AgentProtocolController}), without encoding each message as JSON, sending it
 * through loopback and the filter chain and decoding it, both ways. While a job printed a burst, that was about a third
 * of the server's CPU a log line; and a job's start took two of those hand-offs (the heartbeat's answer, the report of
 * the start). As over HTTP, a stale agent or attempt is a {@link StaleRunException}, and any other failure (the
 * database away) an {@link IOException}, so the agent retries its reports as it would a 503.
 */
final class InProcessConnection implements ServerConnection {

    private final String agentId;
    private final AgentWork work;
    private final AgentReports reports;
    private final AuditLog auditLog;

    InProcessConnection(String agentId, AgentWork work, AgentReports reports, AuditLog auditLog) {
        this.agentId = agentId;
        this.work = work;
        this.reports = reports;
        this.auditLog = auditLog;
    }

    /** A call of the server's services, which may fail as a request would. */
    private interface Call<T> {
        T run() throws InterruptedException;
    }

    private static <T> T call(Call<T> call) throws IOException, InterruptedException {
        try {
            return call.run();
        } catch (StaleAgentException e) {
            throw new StaleRunException(e.getMessage());
        } catch (RuntimeException e) {
            throw new IOException("the server failed it: " + e, e);
        }
    }

    /** Audited as an agent's registration over HTTP is; a record that cannot be written fails it, to be tried again. */
    @Override
    public Registered register(Registration registration) throws IOException, InterruptedException {
        return call(() -> {
            Registered registered = work.register(agentId, registration);
            auditLog.record("agent:" + agentId, "agent.register", "/agents/" + agentId, "in-process",
                    AuditLog.Outcome.SUCCEEDED, "in-process");
            return registered;
        });
    }

    @Override
    public Work heartbeat(Heartbeat heartbeat, Duration wait) throws IOException, InterruptedException {
        return call(() -> work.awaitWork(agentId, heartbeat, wait));
    }

    @Override
    public StartedAck started(UUID jobId, int attempt, Started started) throws IOException, InterruptedException {
        return call(() -> reports.started(agentId, jobId, attempt, started));
    }

    @Override
    public LogAck logs(UUID jobId, int attempt, LogBatch batch) throws IOException, InterruptedException {
        return call(() -> reports.logs(agentId, jobId, attempt, batch));
    }

    @Override
    public MetricAck metrics(UUID jobId, int attempt, MetricBatch batch) throws IOException, InterruptedException {
        return call(() -> reports.metrics(agentId, jobId, attempt, batch));
    }

    @Override
    public MetricAck systemMetrics(UUID jobId, int attempt, SystemMetricBatch batch) throws IOException, InterruptedException {
        return call(() -> reports.systemMetrics(agentId, jobId, attempt, batch));
    }

    @Override
    public void ended(UUID jobId, int attempt, Ended ended) throws IOException, InterruptedException {
        call(() -> {
            reports.ended(agentId, jobId, attempt, ended);
            return null;
        });
    }

    /** The server is this process: whenever the agent asks, it is there to answer (even if only with a failure). */
    @Override
    public long lastAnswerNanos() {
        return System.nanoTime();
    }

    @Override
    public String toString() {
        return "this server, in its process";
    }
}

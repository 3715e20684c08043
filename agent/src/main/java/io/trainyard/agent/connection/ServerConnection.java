package io.trainyard.agent.connection;

import java.io.IOException;
import java.time.Duration;
import java.util.UUID;

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

/**
 * The agent's side of the agent protocol ({@link io.trainyard.protocol}). A call the server refuses as stale throws
 * {@link StaleRunException}; any other failure (the server away, restarting, without its database) is an
 * {@link IOException}, and the reports that must arrive are retried by {@link Redelivery}. An agent on its own
 * host speaks it over HTTP ({@link HttpServerConnection}); the server's own agent calls the server in its process.
 */
public interface ServerConnection {

    Registered register(Registration registration) throws IOException, InterruptedException;

    /** Renews the lease; the server holds the answer up to {@code wait} until there is work. */
    Work heartbeat(Heartbeat heartbeat, Duration wait) throws IOException, InterruptedException;

    StartedAck started(UUID jobId, int attempt, Started started) throws IOException, InterruptedException;

    LogAck logs(UUID jobId, int attempt, LogBatch batch) throws IOException, InterruptedException;

    MetricAck metrics(UUID jobId, int attempt, MetricBatch batch) throws IOException, InterruptedException;

    MetricAck systemMetrics(UUID jobId, int attempt, SystemMetricBatch batch) throws IOException, InterruptedException;

    void ended(UUID jobId, int attempt, Ended ended) throws IOException, InterruptedException;

    /**
     * When a server's host last answered anything at all: an answer of any status, or a refused connection (the host
     * is up and no server listens: it is restarting, and a server that is not running declares nobody lost). While
     * one answers, the agent is not cut off; only silence (timeouts, no route) means a partition.
     */
    long lastAnswerNanos();
}

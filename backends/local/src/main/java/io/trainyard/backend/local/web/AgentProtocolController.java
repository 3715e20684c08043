package io.trainyard.backend.local.web;

import java.time.Duration;
import java.util.UUID;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.trainyard.backend.BackendProtocol;
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
import io.trainyard.security.audit.Audited;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Pattern;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The agent protocol ({@link io.trainyard.protocol}): what agent processes call, each with its own agent token,
 * valid for its id only (checked before any of these runs, see {@code SecurityConfiguration}); what agents send
 * is checked against the protocol's constraints. A stale agent or attempt gets 409 and changes nothing.
 */
@RestController
@BackendProtocol
@RequestMapping("/agents/{agentId}")
@Tag(name = "agent protocol", description = "Registration, heartbeat and run reports of agents (token required)")
public class AgentProtocolController {

    private static final String AGENT_ID = "^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$";
    private static final String AGENT_ID_RULE = "must be 1-128 letters, digits, '.', '_' or '-', starting with a letter or digit";

    private final AgentWork work;
    private final AgentReports reports;

    public AgentProtocolController(AgentWork work, AgentReports reports) {
        this.work = work;
        this.reports = reports;
    }

    @PutMapping
    @Audited("agent.register")
    @Operation(summary = "Register (again): a new epoch, and the runs the server has on this agent")
    public Registered register(@PathVariable @Pattern(regexp = AGENT_ID, message = AGENT_ID_RULE) String agentId,
            @RequestBody @Valid Registration registration) {
        return work.register(agentId, registration);
    }

    @PostMapping("/heartbeat")
    @Operation(summary = "Renew the lease and wait up to waitMillis (at most the heartbeat interval) for runs to start or cancel")
    public Work heartbeat(@PathVariable String agentId, @RequestParam(defaultValue = "0") long waitMillis,
            @RequestBody @Valid Heartbeat heartbeat) throws InterruptedException {
        return work.awaitWork(agentId, heartbeat, Duration.ofMillis(waitMillis));
    }

    @PostMapping("/runs/{jobId}/{attempt}/started")
    @Operation(summary = "The run's processes started")
    public StartedAck started(@PathVariable String agentId, @PathVariable UUID jobId, @PathVariable int attempt,
            @RequestBody @Valid Started started) {
        return reports.started(agentId, jobId, attempt, started);
    }

    @PostMapping("/runs/{jobId}/{attempt}/logs")
    @Operation(summary = "The next numbered batch of the run's log; a batch stored before is acknowledged again, not stored twice")
    public LogAck logs(@PathVariable String agentId, @PathVariable UUID jobId, @PathVariable int attempt,
            @RequestBody @Valid LogBatch batch) {
        return reports.logs(agentId, jobId, attempt, batch);
    }

    @PostMapping("/runs/{jobId}/{attempt}/metrics")
    @Operation(summary = "The next numbered batch of the run's TensorBoard scalars; a batch stored before is acknowledged again, not stored twice")
    public MetricAck metrics(@PathVariable String agentId, @PathVariable UUID jobId, @PathVariable int attempt,
            @RequestBody @Valid MetricBatch batch) {
        return reports.metrics(agentId, jobId, attempt, batch);
    }

    @PostMapping("/runs/{jobId}/{attempt}/system-metrics")
    @Operation(summary = "The run's next system metric samples (GPUs, CPU, memory, I/O); a batch stored before is acknowledged again, "
            + "not stored twice")
    public MetricAck systemMetrics(@PathVariable String agentId, @PathVariable UUID jobId, @PathVariable int attempt,
            @RequestBody @Valid SystemMetricBatch batch) {
        return reports.systemMetrics(agentId, jobId, attempt, batch);
    }

    @PostMapping("/runs/{jobId}/{attempt}/ended")
    @Operation(summary = "The run ended (after all its log and metric batches were acknowledged)")
    public ResponseEntity<Void> ended(@PathVariable String agentId, @PathVariable UUID jobId, @PathVariable int attempt,
            @RequestBody @Valid Ended ended) {
        reports.ended(agentId, jobId, attempt, ended);
        return ResponseEntity.noContent().build();
    }

    /** An agent of an older epoch, or a report about an attempt that is no longer the job's: 409, nothing changed. */
    @ExceptionHandler(StaleAgentException.class)
    ProblemDetail stale(StaleAgentException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, e.getMessage());
        problem.setTitle("Stale agent or attempt");
        return problem;
    }
}

package io.trainyard.api.agents;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.trainyard.agent.AgentReports;
import io.trainyard.agent.AgentWork;
import io.trainyard.agent.protocol.Ended;
import io.trainyard.agent.protocol.Heartbeat;
import io.trainyard.agent.protocol.LogAck;
import io.trainyard.agent.protocol.LogBatch;
import io.trainyard.agent.protocol.Registered;
import io.trainyard.agent.protocol.Registration;
import io.trainyard.agent.protocol.Started;
import io.trainyard.agent.protocol.StartedAck;
import io.trainyard.agent.protocol.Work;
import io.trainyard.agent.AgentProperties;
import io.trainyard.gigl.InvalidConfigException;
import io.trainyard.gigl.Violation;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The agent protocol ({@link io.trainyard.agent.protocol}): what agent processes call, with the agent token.
 * A stale agent or attempt gets 409 and changes nothing.
 */
@RestController
@RequestMapping("/agents/{agentId}")
@Tag(name = "agent protocol", description = "Registration, heartbeat and run reports of agents (token required)")
public class AgentProtocolController {

    private static final String AGENT_ID = "[A-Za-z0-9][A-Za-z0-9._-]{0,127}";

    private final AgentToken token;
    private final AgentWork work;
    private final AgentReports reports;
    private final AgentProperties properties;

    public AgentProtocolController(AgentToken token, AgentWork work, AgentReports reports, AgentProperties properties) {
        this.token = token;
        this.work = work;
        this.reports = reports;
        this.properties = properties;
    }

    @PutMapping
    @Operation(summary = "Register (again): a new epoch, and the runs the server has on this agent")
    public Registered register(@RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
            @PathVariable String agentId, @RequestBody Registration registration) {
        token.check(authorization);
        List<Violation> violations = new ArrayList<>();
        if (!agentId.matches(AGENT_ID)) {
            violations.add(new Violation("agentId", "must be 1-128 letters, digits, '.', '_' or '-', starting with a letter or digit"));
        }
        if (registration.host() == null || registration.host().isBlank()) {
            violations.add(new Violation("host", "is required"));
        }
        if (registration.gpus() == null) {
            violations.add(new Violation("gpus", "is required (empty on a host without GPUs)"));
        }
        if (registration.cpuSlots() < 1) {
            violations.add(new Violation("cpuSlots", "must be at least 1"));
        }
        if (!violations.isEmpty()) {
            throw new InvalidConfigException(violations);
        }
        return work.register(agentId, registration);
    }

    @PostMapping("/heartbeat")
    @Operation(summary = "Renew the lease and wait up to waitMillis (at most the heartbeat interval) for runs to start or cancel")
    public Work heartbeat(@RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
            @PathVariable String agentId, @RequestParam(defaultValue = "0") long waitMillis,
            @RequestBody Heartbeat heartbeat) throws InterruptedException {
        token.check(authorization);
        long wait = Math.clamp(waitMillis, 0, properties.heartbeatInterval().toMillis());
        return work.awaitWork(agentId, heartbeat, Duration.ofMillis(wait));
    }

    @PostMapping("/runs/{jobId}/{attempt}/started")
    @Operation(summary = "The run's processes started")
    public StartedAck started(@RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
            @PathVariable String agentId, @PathVariable UUID jobId, @PathVariable int attempt, @RequestBody Started started) {
        token.check(authorization);
        return reports.started(agentId, jobId, attempt, started);
    }

    @PostMapping("/runs/{jobId}/{attempt}/logs")
    @Operation(summary = "The next numbered batch of the run's log; a batch stored before is acknowledged again, not stored twice")
    public LogAck logs(@RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
            @PathVariable String agentId, @PathVariable UUID jobId, @PathVariable int attempt, @RequestBody LogBatch batch) {
        token.check(authorization);
        return reports.logs(agentId, jobId, attempt, batch);
    }

    @PostMapping("/runs/{jobId}/{attempt}/ended")
    @Operation(summary = "The run ended (after all its log batches were acknowledged)")
    public ResponseEntity<Void> ended(@RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
            @PathVariable String agentId, @PathVariable UUID jobId, @PathVariable int attempt, @RequestBody Ended ended) {
        token.check(authorization);
        reports.ended(agentId, jobId, attempt, ended);
        return ResponseEntity.noContent().build();
    }
}

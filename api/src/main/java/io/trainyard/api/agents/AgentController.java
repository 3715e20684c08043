package io.trainyard.api.agents;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.trainyard.backend.local.agents.Agent;
import io.trainyard.backend.local.agents.AgentRegistry;
import io.trainyard.backend.local.agents.LocalRuns;
import io.trainyard.protocol.Gpu;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/agents")
@Tag(name = "agents", description = "The hosts that run jobs")
public class AgentController {

    private final AgentRegistry registry;
    private final LocalRuns runs;

    public AgentController(AgentRegistry registry, LocalRuns runs) {
        this.registry = registry;
        this.runs = runs;
    }

    @GetMapping
    @Operation(summary = "Every agent: GPUs (free or held by which job), CPU slots, running jobs, last heartbeat and lease")
    public List<AgentView> list() {
        Map<String, List<LocalRuns.ActivePlacement>> activeByNode = runs.placements().stream()
                .collect(Collectors.groupingBy(active -> active.placement().node()));
        return registry.all().stream().map(agent -> view(agent, activeByNode.getOrDefault(agent.getId(), List.of()))).toList();
    }

    private static AgentView view(Agent agent, List<LocalRuns.ActivePlacement> running) {
        Map<Integer, UUID> gpuHolders = new HashMap<>();
        int cpuSlotsUsed = 0;
        for (LocalRuns.ActivePlacement active : running) {
            active.placement().gpus().forEach(gpu -> gpuHolders.put(gpu, active.jobId()));
            cpuSlotsUsed += active.placement().cpuSlots();
        }
        List<AgentView.GpuView> gpus = new ArrayList<>();
        for (Gpu gpu : agent.getGpus()) {
            gpus.add(new AgentView.GpuView(gpu.index(), gpu.model(), gpu.memoryMiB(), gpuHolders.get(gpu.index())));
        }
        return new AgentView(agent.getId(), agent.getHost(), agent.getState(), agent.getEpoch(), gpus,
                agent.getCpuSlots(), cpuSlotsUsed,
                running.stream().map(active -> new AgentView.RunningJob(active.jobId(), active.jobName(), active.workers())).toList(),
                agent.getRegisteredAt(), agent.getLastHeartbeatAt(), agent.getLeaseExpiresAt());
    }
}

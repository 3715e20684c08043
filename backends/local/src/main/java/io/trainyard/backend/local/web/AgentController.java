package io.trainyard.backend.local.web;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.trainyard.backend.local.agents.Agent;
import io.trainyard.backend.local.agents.AgentRegistry;
import io.trainyard.backend.local.agents.LocalRuns;
import io.trainyard.backend.local.placement.HostShare;
import io.trainyard.protocol.Gpu;
import io.trainyard.protocol.GpuSample;
import io.trainyard.security.ProjectAccess;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/agents")
@Tag(name = "agents", description = "The hosts that run jobs")
public class AgentController {

    private final AgentRegistry registry;
    private final LocalRuns runs;
    private final ProjectAccess access;

    public AgentController(AgentRegistry registry, LocalRuns runs, ProjectAccess access) {
        this.registry = registry;
        this.runs = runs;
        this.access = access;
    }

    @GetMapping
    @Operation(operationId = "listAgents",
            summary = "Every agent: GPUs (free or held by which job), CPU slots, running jobs, last heartbeat and lease",
            description = "Jobs of projects the caller may not see show as held capacity, without their id or name.")
    public List<AgentView> list() {
        Map<String, List<Held>> heldByNode = new HashMap<>();
        for (LocalRuns.ActivePlacement active : runs.placements()) {
            for (HostShare share : active.placement().hosts(active.workers())) {
                heldByNode.computeIfAbsent(share.node(), node -> new ArrayList<>()).add(new Held(active, share));
            }
        }
        return registry.all().stream().map(agent -> view(agent, heldByNode.getOrDefault(agent.getId(), List.of()))).toList();
    }

    /** An active job's share of one agent. */
    private record Held(LocalRuns.ActivePlacement job, HostShare share) {
    }

    private AgentView view(Agent agent, List<Held> held) {
        Map<Integer, AgentView.RunningJob> gpuHolders = new HashMap<>();
        List<AgentView.RunningJob> jobs = new ArrayList<>();
        int cpuSlotsUsed = 0;
        for (Held share : held) {
            LocalRuns.ActivePlacement active = share.job();
            AgentView.RunningJob job = access.canSee(active.project())
                    ? new AgentView.RunningJob(active.jobId(), active.jobName(), share.share().workers())
                    : new AgentView.RunningJob(null, null, share.share().workers());
            jobs.add(job);
            share.share().gpus().forEach(gpu -> gpuHolders.put(gpu, job));
            cpuSlotsUsed += share.share().cpuSlots();
        }
        Map<Integer, GpuSample> samples = agent.getGpuSamples() == null ? Map.of()
                : agent.getGpuSamples().stream().collect(Collectors.toMap(GpuSample::index, sample -> sample, (first, second) -> second));
        List<AgentView.GpuView> gpus = new ArrayList<>();
        for (Gpu gpu : agent.getGpus()) {
            AgentView.RunningJob holder = gpuHolders.get(gpu.index());
            GpuSample sample = samples.get(gpu.index());
            gpus.add(new AgentView.GpuView(gpu.index(), gpu.model(), gpu.memoryMiB(), holder != null,
                    holder == null ? null : holder.id(), sample == null ? null : sample.utilizationPercent(),
                    sample == null ? null : sample.memoryUsedMiB(), sample == null ? null : sample.powerWatts(),
                    sample == null ? null : sample.temperatureCelsius()));
        }
        return new AgentView(agent.getId(), agent.getHost(), agent.getState(), agent.getEpoch(), gpus,
                agent.getCpuSlots(), cpuSlotsUsed, jobs, agent.getRegisteredAt(), agent.getLastHeartbeatAt(),
                agent.getLeaseExpiresAt(), agent.getOutageBackAt() == null ? null
                        : new AgentView.DatabaseOutage(agent.getOutageLostAt(), agent.getOutageBackAt(), agent.getOutageSeenBy()),
                agent.getGpuSampledAt());
    }
}

package io.trainyard.api.agents;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.trainyard.agent.Agent;
import io.trainyard.agent.AgentRegistry;
import io.trainyard.agent.Gpu;
import io.trainyard.job.Job;
import io.trainyard.job.JobRepository;
import io.trainyard.job.JobState;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

@RestController
@RequestMapping("/agents")
@Tag(name = "agents", description = "The hosts that run jobs")
public class AgentController {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final AgentRegistry registry;
    private final JobRepository jobs;

    public AgentController(AgentRegistry registry, JobRepository jobs) {
        this.registry = registry;
        this.jobs = jobs;
    }

    @GetMapping
    @Operation(summary = "Every agent: GPUs (free or held by which job), CPU slots, running jobs, last heartbeat and lease")
    public List<AgentView> list() {
        Map<String, List<Job>> activeByNode = new HashMap<>();
        for (Job job : jobs.findByStateIn(JobState.ACTIVE)) {
            activeByNode.computeIfAbsent(job.getNodeId(), node -> new ArrayList<>()).add(job);
        }
        return registry.all().stream().map(agent -> view(agent, activeByNode.getOrDefault(agent.getId(), List.of()))).toList();
    }

    private static AgentView view(Agent agent, List<Job> running) {
        Map<Integer, UUID> gpuHolders = new HashMap<>();
        int cpuSlotsUsed = 0;
        for (Job job : running) {
            if (job.getPlacement() == null) {
                continue;
            }
            JsonNode placement = JSON.readTree(job.getPlacement());
            placement.path("gpus").forEach(gpu -> gpuHolders.put(gpu.asInt(), job.getId()));
            cpuSlotsUsed += placement.path("cpuSlots").asInt(0);
        }
        List<AgentView.GpuView> gpus = new ArrayList<>();
        for (Gpu gpu : agent.getGpus()) {
            gpus.add(new AgentView.GpuView(gpu.index(), gpu.model(), gpu.memoryMiB(), gpuHolders.get(gpu.index())));
        }
        return new AgentView(agent.getId(), agent.getHost(), agent.getState(), agent.getEpoch(), gpus,
                agent.getCpuSlots(), cpuSlotsUsed,
                running.stream().map(job -> new AgentView.RunningJob(job.getId(), job.getJobName(), job.getSlots())).toList(),
                agent.getRegisteredAt(), agent.getLastHeartbeatAt(), agent.getLeaseExpiresAt());
    }
}

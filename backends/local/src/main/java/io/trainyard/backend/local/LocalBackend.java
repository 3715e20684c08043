package io.trainyard.backend.local;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.trainyard.agent.trainer.TrainerOutputs;
import io.trainyard.agent.trainer.WorkFolder;
import io.trainyard.backend.Backend;
import io.trainyard.backend.BackendDescription;
import io.trainyard.backend.HostProcesses;
import io.trainyard.backend.LaunchPlan;
import io.trainyard.backend.PlacementDecision;
import io.trainyard.backend.PlacementPass;
import io.trainyard.backend.local.agents.AgentWork;
import io.trainyard.backend.local.agents.LocalRuns;
import io.trainyard.backend.local.agents.TrainerPrograms;
import io.trainyard.backend.local.placement.AgentCapacity;
import io.trainyard.backend.local.placement.AgentPlacement;
import io.trainyard.backend.local.placement.Demand;
import io.trainyard.backend.local.placement.HostShare;
import io.trainyard.backend.local.placement.Placer;
import io.trainyard.backend.local.placement.PoolCapacity;
import io.trainyard.core.TrainyardProperties;
import io.trainyard.gigl.ResourceConfig;
import io.trainyard.gigl.TrainerResource;
import io.trainyard.job.Job;
import io.trainyard.job.JobRepository;
import io.trainyard.launch.LaunchSpec;
import io.trainyard.validation.InvalidRequestException;
import org.springframework.stereotype.Component;

/**
 * The pool of agents as a backend: {@code localTrainerConfig} jobs are placed on agents (all workers at once: on
 * one agent, best fit, or spread over several; decided from PostgreSQL) and handed to it at its next heartbeat, which this backend cuts
 * short. The agents run the trainers and report back ({@link io.trainyard.backend.local.agents.AgentReports});
 * after a server restart they re-attach to their runs themselves, so there is nothing for the server to
 * recover.
 */
@Component
public class LocalBackend implements Backend {

    public static final String NAME = LocalRuns.BACKEND;
    public static final BackendDescription DESCRIPTION = new BackendDescription(NAME,
            "The pool of Trainyard agents: trainers as supervised processes on GPUs or CPU slots",
            List.of(TrainerResource.Local.KIND), List.of(TrainerResource.VertexAiGraphStore.KIND), true, true, false, AgentPlacement.KIND,
            AgentPlacement.class, List.of("tensorboard"));

    private final TrainyardProperties trainyard;
    private final LocalBackendProperties properties;
    private final PoolCapacity pool;
    private final AgentWork agentWork;
    private final TrainerPrograms programs;
    private final JobRepository jobs;

    public LocalBackend(TrainyardProperties trainyard, LocalBackendProperties properties, PoolCapacity pool,
            AgentWork agentWork, TrainerPrograms programs, JobRepository jobs) {
        this.trainyard = trainyard;
        this.properties = properties;
        this.pool = pool;
        this.agentWork = agentWork;
        this.programs = programs;
        this.jobs = jobs;
    }

    @Override
    public BackendDescription description() {
        return DESCRIPTION;
    }

    /** The job's TensorBoard, which the server runs on the scalars the agent shipped (see the api's tensorboard package). */
    @Override
    public Map<String, String> links(Job job) {
        return Map.of("tensorboard", "/jobs/" + job.getId() + "/tensorboard/");
    }

    /**
     * Outputs must be local, the trainer command must split into words, and workers spread over {@code nodes} hosts
     * must divide evenly; the pool is not consulted.
     */
    @Override
    public void validate(Job job) {
        HostProcesses.validate(job, NAME);
        if (job.getNodes() > 1 && job.getSlots() % job.getNodes() != 0) {
            throw new InvalidRequestException("nodes", job.getSlots() + " workers do not divide evenly over " + job.getNodes()
                    + " hosts");
        }
    }

    /** The plan on the agents the job would go to now, or could ever go to; the paths are as on this server's host. */
    @Override
    public LaunchPlan plan(Job job) {
        validate(job);
        WorkFolder folder = folder(job.getId());
        Demand demand = demand(job);
        List<AgentCapacity> agents = pool.activeAgents();
        PlacementDecision decision = Placer.place(demand, agents);
        AgentPlacement shape = switch (decision) {
            case PlacementDecision.Placed placed -> AgentPlacement.of(placed.placement());
            // Where it would go were the pool idle: the shape it waits for.
            case PlacementDecision.Wait wait -> Placer.place(demand, agents.stream().map(AgentCapacity::idle).toList())
                    instanceof PlacementDecision.Placed idle ? AgentPlacement.of(idle.placement()) : null;
            case PlacementDecision.Never never -> null;
        };
        List<HostShare> hosts = shape == null ? List.of(new HostShare("", List.of(), 0, 0, job.getSlots()))
                : shape.hosts(job.getSlots());
        List<LaunchPlan.Worker> workers = new ArrayList<>();
        for (int host = 0; host < hosts.size(); host++) {
            HostShare share = hosts.get(host);
            LaunchSpec spec = new LaunchSpec(job.getJobName(), folder.files(), programs.of(job), !share.gpus().isEmpty());
            properties.trainerInvocation().workers(job.getId(), 1, spec, share.gpus(), share.ranks(job.getSlots(), host), null)
                    .forEach(worker -> workers.add(new LaunchPlan.Worker(worker.rank(), worker.argv(), worker.environment())));
        }
        Map<String, Object> placement = new LinkedHashMap<>();
        placement.put("workers", job.getSlots());
        switch (decision) {
            case PlacementDecision.Never never -> placement.put("noCapacity", never.reason());
            case PlacementDecision.Wait wait when shape == null -> placement.put("waiting", wait.reason());
            default -> {
                placement.put("node", shape.node());
                placement.put("device", shape.device());
                placement.put("gpus", shape.gpus());
                placement.put("cpuSlots", shape.cpuSlots());
                if (shape.spansHosts()) {
                    placement.put("moreHosts", shape.moreHosts());
                }
                if (decision instanceof PlacementDecision.Wait wait) {
                    placement.put("waiting", wait.reason());
                }
            }
        }
        return new LaunchPlan(NAME, placement, folder.root().toString(), workers);
    }

    /** Relative to the work folder, which is the trainer's working directory on whichever host runs it. */
    @Override
    public String trainerAssetFolder(String jobName, ResourceConfig resource) {
        return WorkFolder.TRAINER_ASSETS;
    }

    @Override
    public Map<String, String> outputUris(Job job) {
        return TrainerOutputs.uris(job.getTask().trainedModelMetadata().byField(), folder(job.getId()));
    }

    /**
     * Reads the pool's free capacity once per pass, at the pass's first job (most passes find the queue empty
     * and read nothing), and takes each placement out of it.
     */
    @Override
    public PlacementPass beginPass() {
        return new PlacementPass() {
            private List<AgentCapacity> agents;

            @Override
            public PlacementDecision place(Job job) {
                if (agents == null) {
                    agents = pool.activeAgents();
                }
                PlacementDecision decision = Placer.place(demand(job), agents);
                if (decision instanceof PlacementDecision.Placed placed) {
                    Placer.take(agents, AgentPlacement.of(placed.placement()), job.getSlots());
                }
                return decision;
            }
        };
    }

    /**
     * The claim is committed: the agent learns of it at its heartbeat, which is woken now. The other hosts of a job
     * spanning several learn of theirs once the first host reported where the job's world meets.
     */
    @Override
    public void launch(Job job) {
        agentWork.wake(job.getNodeId());
    }

    /** Wakes the heartbeat of every host of the job, to be told to stop it. */
    @Override
    public void requestCancel(UUID jobId) {
        jobs.findById(jobId).filter(job -> job.getPlacement() != null)
                .ifPresent(job -> AgentPlacement.of(job.getPlacement()).hosts(job.getSlots())
                        .forEach(share -> agentWork.wake(share.node())));
    }

    /** Agents re-attach to their runs when they register again; the server holds no run of its own. */
    @Override
    public void recover(List<Job> activeJobsOfThisNode) {
    }

    private static Demand demand(Job job) {
        return new Demand(job.getSlots(), job.isRequireGpus(), job.getNodes());
    }

    private WorkFolder folder(UUID jobId) {
        return WorkFolder.of(trainyard.dataDir(), jobId);
    }
}

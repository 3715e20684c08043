package io.trainyard.backend.local;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

import io.trainyard.TrainyardProperties;
import io.trainyard.agent.AgentWork;
import io.trainyard.dispatch.Backend;
import io.trainyard.dispatch.LaunchPlan;
import io.trainyard.dispatch.Reservation;
import io.trainyard.dispatch.ReservationPass;
import io.trainyard.gigl.InvalidConfigException;
import io.trainyard.gigl.TaskConfig;
import io.trainyard.gigl.TrainerResource;
import io.trainyard.gigl.Violation;
import io.trainyard.job.Job;
import io.trainyard.job.JobRepository;
import io.trainyard.job.JobSpec;
import io.trainyard.placement.AgentCapacity;
import io.trainyard.placement.Demand;
import io.trainyard.placement.Placement;
import io.trainyard.placement.PlacementDecision;
import io.trainyard.placement.Placer;
import io.trainyard.placement.PoolCapacity;
import org.springframework.stereotype.Component;

/**
 * The pool of agents as a backend: {@code localTrainerConfig} jobs are placed on an agent (all workers on
 * one, best fit, decided from PostgreSQL) and handed to it at its next heartbeat, which this backend cuts
 * short. The agents run the trainers and report back ({@link io.trainyard.agent.AgentReports}); after a
 * server restart they re-attach to their runs themselves, so there is nothing for the server to recover.
 */
@Component
public class LocalBackend implements Backend {

    public static final String NAME = AgentWork.BACKEND;

    private final TrainyardProperties trainyard;
    private final LocalBackendProperties properties;
    private final PoolCapacity pool;
    private final AgentWork agentWork;
    private final JobRepository jobs;

    public LocalBackend(TrainyardProperties trainyard, LocalBackendProperties properties, PoolCapacity pool,
            AgentWork agentWork, JobRepository jobs) {
        this.trainyard = trainyard;
        this.properties = properties;
        this.pool = pool;
        this.agentWork = agentWork;
        this.jobs = jobs;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean runs(TrainerResource resource) {
        return resource instanceof TrainerResource.Local;
    }

    /** Outputs must be local, and the trainer command must split into words; the pool is not consulted. */
    @Override
    public void validate(UUID jobId, JobSpec spec) {
        List<Violation> violations = new ArrayList<>();
        spec.task().trainedModelMetadata().byField().forEach((field, uri) -> {
            if (uri != null && uri.startsWith("gs://")) {
                violations.add(new Violation("taskConfig.sharedConfig.trainedModelMetadata." + field,
                        "'" + uri + "' is on GCS; the local backend writes outputs to local paths or file:// URIs"));
            }
        });
        if (spec.task().shouldRunGltBackend()) {
            try {
                CommandWords.split(spec.task().trainerCommand());
            } catch (IllegalArgumentException e) {
                violations.add(new Violation("taskConfig.trainerConfig.command", e.getMessage()));
            }
        }
        if (!violations.isEmpty()) {
            throw new InvalidConfigException(violations);
        }
    }

    /** The plan on the agent the job would go to now, or could ever go to; the paths are as on this server's host. */
    @Override
    public LaunchPlan plan(UUID jobId, JobSpec spec) {
        validate(jobId, spec);
        WorkFolder folder = WorkFolder.of(trainyard.dataDir(), jobId);
        Demand demand = new Demand(spec.slots(), spec.requireGpus());
        List<AgentCapacity> agents = pool.activeAgents();
        PlacementDecision decision = Placer.place(demand, agents);
        Placement shape = switch (decision) {
            case PlacementDecision.OnAgent on -> on.placement();
            case PlacementDecision.Wait wait -> agents.stream().map(agent -> agent.shapeFor(demand))
                    .filter(Objects::nonNull).findFirst().orElse(null);
            case PlacementDecision.Never never -> null;
        };
        List<LaunchPlan.Worker> workers = TrainerInvocation.workers(jobId, 1, spec.jobName(), spec.task(),
                spec.images().orElse(properties.defaultImages()), folder,
                shape == null ? Placement.onCpu("", 0) : shape, spec.slots(), properties.masterAddr(), null);
        Map<String, Object> placement = new LinkedHashMap<>();
        placement.put("workers", spec.slots());
        switch (decision) {
            case PlacementDecision.Never never -> placement.put("noCapacity", never.reason());
            case PlacementDecision.Wait wait when shape == null -> placement.put("waiting", "no agent is registered");
            default -> {
                placement.put("node", shape.node());
                placement.put("device", shape.device());
                placement.put("gpus", shape.gpus());
                placement.put("cpuSlots", shape.cpuSlots());
                if (decision instanceof PlacementDecision.Wait) {
                    placement.put("waiting", "for capacity on " + shape.node());
                }
            }
        }
        return new LaunchPlan(NAME, placement, folder.root().toString(), workers);
    }

    @Override
    public Map<String, String> outputUris(UUID jobId, TaskConfig task) {
        return TrainerOutputs.uris(task, WorkFolder.of(trainyard.dataDir(), jobId));
    }

    @Override
    public ReservationPass beginPass() {
        return new PoolPass();
    }

    /**
     * Reads the pool's free capacity once per pass, at the pass's first job (most passes find the queue
     * empty and read nothing), and takes each placement out of it.
     */
    private final class PoolPass implements ReservationPass {

        private List<AgentCapacity> agents;

        @Override
        public Reservation reserve(Job job) {
            if (agents == null) {
                agents = pool.activeAgents();
            }
            return switch (Placer.place(new Demand(job.getSlots(), job.isRequireGpus()), agents)) {
                case PlacementDecision.OnAgent on -> {
                    agents.stream().filter(agent -> agent.agentId().equals(on.placement().node())).findFirst()
                            .orElseThrow().take(on.placement());
                    yield new Reservation.Placed(on.placement().node(), on.placement().toJson());
                }
                case PlacementDecision.Wait wait -> new Reservation.Wait();
                case PlacementDecision.Never never -> new Reservation.Never(never.reason());
            };
        }
    }

    /** The claim is committed: the agent learns of it at its heartbeat, which is woken now. */
    @Override
    public void launch(Job job, JobSpec spec) {
        agentWork.wake(job.getNodeId());
    }

    @Override
    public void requestCancel(UUID jobId) {
        jobs.findById(jobId).map(Job::getNodeId).ifPresent(agentWork::wake);
    }

    /** Agents re-attach to their runs when they register again; the server holds no run of its own. */
    @Override
    public void recover(List<Job> activeJobsOfThisNode) {
    }
}

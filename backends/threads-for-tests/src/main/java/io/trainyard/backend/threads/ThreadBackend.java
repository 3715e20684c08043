package io.trainyard.backend.threads;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import io.trainyard.backend.Backend;
import io.trainyard.backend.BackendDescription;
import io.trainyard.backend.LaunchPlan;
import io.trainyard.backend.PlacementDecision;
import io.trainyard.backend.PlacementPass;
import io.trainyard.gigl.ResourceConfig;
import io.trainyard.gigl.TrainerResource;
import io.trainyard.job.FailureCause;
import io.trainyard.job.Job;
import io.trainyard.job.JobTransitions;
import io.trainyard.job.RunOutcome;
import io.trainyard.launch.JobFiles;
import io.trainyard.launch.LaunchSpec;
import io.trainyard.launch.TrainerImages;
import io.trainyard.launch.WorkerLaunch;
import io.trainyard.logs.LogSink;
import io.trainyard.logs.LogWriter;
import io.trainyard.protocol.LineQueue;
import io.trainyard.protocol.LogStream;
import io.trainyard.protocol.OutputLine;

/**
 * Runs each job as a thread of the server's JVM: the thread "runs" the launch contract by printing each worker's
 * argv as the job's log, then succeeds. Nothing is started, so it needs no host, and it runs any
 * {@code localTrainerConfig} or {@code customTrainerConfig} job that names it.
 */
public class ThreadBackend implements Backend {

    static final BackendDescription DESCRIPTION = new BackendDescription("threads",
            "Each job a thread of the server that prints its launch (tests only)",
            List.of(TrainerResource.Local.KIND, "customTrainerConfig"), false, false, false, ThreadPlacement.KIND, ThreadPlacement.class,
            List.of());

    private final String nodeId;
    private final JobTransitions transitions;
    private final LogWriter logs;
    private final Map<UUID, Thread> running = new ConcurrentHashMap<>();

    ThreadBackend(String nodeId, JobTransitions transitions, LogWriter logs) {
        this.nodeId = nodeId;
        this.transitions = transitions;
        this.logs = logs;
    }

    @Override
    public BackendDescription description() {
        return DESCRIPTION;
    }

    @Override
    public void validate(Job job) {
    }

    @Override
    public LaunchPlan plan(Job job) {
        List<LaunchPlan.Worker> workers = launchSpec(job).workers(job.getSlots(), "127.0.0.1", "0").stream()
                .map(worker -> new LaunchPlan.Worker(worker.rank(), worker.argv(), worker.environment())).toList();
        return new LaunchPlan(DESCRIPTION.name(), Map.of("thread", threadName(job.getId())), null, workers);
    }

    @Override
    public String trainerAssetFolder(String jobName, ResourceConfig resource) {
        return "memory:/" + jobName + "/trainer";
    }

    @Override
    public Map<String, String> outputUris(Job job) {
        return job.getTask().trainedModelMetadata().byField();
    }

    @Override
    public PlacementPass beginPass() {
        return job -> new PlacementDecision.Placed(nodeId, new ThreadPlacement(nodeId, threadName(job.getId())).tagged());
    }

    @Override
    public void launch(Job job) {
        UUID id = job.getId();
        int attempt = job.getAttempt();
        List<WorkerLaunch> workers = launchSpec(job).workers(job.getSlots(), "127.0.0.1", "0");
        running.put(id, Thread.ofVirtual().name(threadName(id)).start(() -> run(id, attempt, workers)));
    }

    private void run(UUID id, int attempt, List<WorkerLaunch> workers) {
        try {
            transitions.markRunning(id, attempt, "{}");
            LogSink sink = logs.open(id, attempt);
            long position = 0;
            for (WorkerLaunch worker : workers) {
                String text = "rank " + worker.rank() + " would run: " + String.join(" ", worker.argv());
                position += text.length();
                sink.addAll(List.of(new LineQueue.Entry(OutputLine.at(Instant.now(), LogStream.STDOUT, worker.rank(), text),
                        "thread", position)));
            }
            logs.close(sink);
            transitions.finish(id, attempt, RunOutcome.succeeded());
        } catch (InterruptedException e) {
            transitions.finish(id, attempt, RunOutcome.cancelled(null));
        } finally {
            running.remove(id);
        }
    }

    @Override
    public void requestCancel(UUID jobId) {
        Thread thread = running.get(jobId);
        if (thread != null) {
            thread.interrupt();
        }
    }

    /** Threads do not outlive the server: a run it had when it stopped is lost. */
    @Override
    public void recover(List<Job> activeJobsOfThisNode) {
        for (Job job : activeJobsOfThisNode) {
            transitions.finish(job.getId(), job.getAttempt(),
                    RunOutcome.failed(FailureCause.INFRASTRUCTURE, null, "the server stopped while its thread ran the job"));
        }
    }

    /** The launch contract of the job, its files nowhere (nothing reads them). */
    private static LaunchSpec launchSpec(Job job) {
        JobFiles files = new JobFiles("memory:/" + job.getId() + "/task_config.yaml",
                "memory:/" + job.getId() + "/resource_config.yaml", "memory:/" + job.getJobName() + "/trainer");
        return new LaunchSpec(job.getJobName(), files,
                job.trainerProgram(TrainerImages.SERVER_DEFAULTS, command -> List.of(command.split(" "))), false);
    }

    private static String threadName(UUID jobId) {
        return "job-" + jobId;
    }
}

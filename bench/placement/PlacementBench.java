import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;

import io.trainyard.backend.PlacementDecision;
import io.trainyard.backend.local.placement.AgentCapacity;
import io.trainyard.backend.local.placement.Demand;
import io.trainyard.backend.local.placement.Placer;
import io.trainyard.job.Placement;

/**
 * The placement policy on a simulated pool: 100 agents x 8 GPUs and 10,000 queued GPU jobs of mixed sizes
 * (1, 2, 4 or 8 GPUs) and durations. Simulated time runs from event to event; at each, queued jobs are
 * placed in queue order with backfill (a job that does not fit is passed over), exactly as the dispatcher
 * asks Trainyard's Placer. Prints the Placer's decisions per second of CPU time and the share of GPUs busy
 * while jobs wait. It measures the policy and its speed, not the PostgreSQL claim path around it.
 * Run with bench/placement/run.sh.
 */
public class PlacementBench {

    record Job(int id, int gpus, double duration) {
    }

    record Running(Placement.OnAgent placement, double endsAt) {
    }

    public static void main(String[] args) {
        int agents = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int gpusPerAgent = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        int jobs = args.length > 2 ? Integer.parseInt(args[2]) : 10_000;
        Random random = new Random(42);
        int[] sizes = {1, 1, 1, 1, 2, 2, 4, 8};
        List<Job> queue = new ArrayList<>();
        for (int i = 0; i < jobs; i++) {
            queue.add(new Job(i, sizes[random.nextInt(sizes.length)], 10 + random.nextDouble() * 50));
        }
        List<AgentCapacity> pool = new ArrayList<>();
        List<Integer> gpuIndices = new ArrayList<>();
        for (int g = 0; g < gpusPerAgent; g++) {
            gpuIndices.add(g);
        }
        for (int a = 0; a < agents; a++) {
            pool.add(new AgentCapacity(String.format("agent-%03d", a), gpuIndices, 8));
        }
        int totalGpus = agents * gpusPerAgent;
        PriorityQueue<Running> running = new PriorityQueue<>(Comparator.comparingDouble(Running::endsAt));
        double now = 0;
        double busyGpuTime = 0;
        double waitingTime = 0;
        int busyGpus = 0;
        long decisions = 0;
        long decisionNanos = 0;
        while (!queue.isEmpty()) {
            // Place what fits now, in queue order, passing over what does not (backfill).
            for (int i = 0; i < queue.size(); i++) {
                Job job = queue.get(i);
                long started = System.nanoTime();
                PlacementDecision decision = Placer.place(new Demand(job.gpus(), true), pool);
                decisionNanos += System.nanoTime() - started;
                decisions++;
                if (decision instanceof PlacementDecision.Placed(String node, Placement.OnAgent placement)) {
                    agent(pool, node).take(placement);
                    running.add(new Running(placement, now + job.duration()));
                    busyGpus += job.gpus();
                    queue.remove(i--);
                }
                if (busyGpus == totalGpus) {
                    break;
                }
            }
            if (queue.isEmpty() || running.isEmpty()) {
                break;
            }
            Running next = running.poll();
            busyGpuTime += busyGpus * (next.endsAt() - now);
            waitingTime += next.endsAt() - now;
            now = next.endsAt();
            free(pool, next.placement(), running, gpuIndices);
            busyGpus -= next.placement().gpus().size();
        }
        System.out.printf("placement: %d agents x %d GPUs, %d queued jobs (1/2/4/8 GPUs, 10-60 s)%n", agents, gpusPerAgent, jobs);
        System.out.printf("placement: %.0f decisions/s (%d decisions, %.1f us each); GPUs busy while jobs waited: %.1f%%%n",
                decisions / (decisionNanos / 1e9), decisions, decisionNanos / 1e3 / decisions,
                100.0 * busyGpuTime / (totalGpus * waitingTime));
        Runtime runtime = Runtime.getRuntime();
        System.out.printf("placement: heap used %.0f MB%n", (runtime.totalMemory() - runtime.freeMemory()) / 1e6);
    }

    static AgentCapacity agent(List<AgentCapacity> pool, String id) {
        return pool.stream().filter(agent -> agent.agentId().equals(id)).findFirst().orElseThrow();
    }

    /** Frees a placement the way the server does: the agent's capacity is rebuilt from what still runs on it. */
    static void free(List<AgentCapacity> pool, Placement.OnAgent ended, PriorityQueue<Running> running, List<Integer> gpuIndices) {
        int index = pool.indexOf(agent(pool, ended.node()));
        AgentCapacity rebuilt = new AgentCapacity(ended.node(), gpuIndices, 8);
        for (Running job : running) {
            if (job.placement().node().equals(ended.node())) {
                rebuilt.take(job.placement());
            }
        }
        pool.set(index, rebuilt);
    }
}

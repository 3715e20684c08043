package io.trainyard.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.trainyard.client.ApiException;
import io.trainyard.client.model.Agent;
import io.trainyard.client.model.AgentGpu;
import io.trainyard.client.model.Job;
import io.trainyard.client.model.MetricSeriesView;
import io.trainyard.client.model.MetricTagView;
import io.trainyard.client.model.ScalarPoint;
import io.trainyard.testing.Eventually;
import io.trainyard.testing.JobBodies;
import io.trainyard.testing.RawHttpClient;
import io.trainyard.testing.RunningServer;
import io.trainyard.testing.TestDatabase;
import io.trainyard.testing.TrainyardClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a job uses of its host, as the agent samples it: the GPUs from a stand-in {@code nvidia-smi} printing what the
 * real one would, the trainer's CPU, resident memory and I/O from the real {@code /proc}. The series through the API,
 * the pool's live GPU use, Prometheus' per-host gauges, and the same series after the server restarts.
 */
class SystemMetricsTest {

    private static final long MIB = 1024L * 1024L;
    private static final String PROGRAM = """
            import time
            held = bytearray(200 * 1024 * 1024)
            for page in range(0, len(held), 4096):
                held[page] = 1
            end = time.time() + 4
            while time.time() < end:
                pass
            print("done", flush=True)
            """;

    @TempDir
    Path dataDir;

    @Test
    void aJobsGpuCpuAndMemoryUseIsSampledServedAndKeptAcrossARestart() throws Exception {
        String database = TestDatabase.newDatabaseUrl();
        UUID id;
        Map<String, MetricTagView> sampled;
        try (RunningServer server = RunningServer.startWithThreeGpus(database, dataDir, "sampled-node",
                "--trainyard.local.system-metrics-interval=500ms")) {
            TrainyardClient api = server.api();
            id = api.submit(JobBodies.job("busy_for_four_seconds", PROGRAM)).getId();
            Job job = api.awaitEnded(id, Duration.ofSeconds(90));
            assertThat(job.getState()).isEqualTo(Job.StateEnum.SUCCEEDED);
            int gpu = job.getPlacement().getOnAgent().getGpus().get(0);

            sampled = series(api, id);
            assertThat(sampled.keySet()).contains("gpu" + gpu + "/utilization_percent", "gpu" + gpu + "/memory_used_bytes",
                    "gpu" + gpu + "/temperature_celsius", "rank0/cpu_percent", "rank0/rss_bytes", "rank0/read_bytes",
                    "rank0/write_bytes");
            assertThat(sampled.keySet()).as("only the job's own GPU").noneMatch(tag -> tag.startsWith("gpu") && !tag.startsWith("gpu" + gpu + "/"));
            MetricTagView utilization = sampled.get("gpu" + gpu + "/utilization_percent");
            assertThat(utilization.getPoints()).as("a sample every 0.5 s of a 4 s run").isGreaterThanOrEqualTo(4);
            assertThat(utilization.getMean()).isEqualTo(37.0);
            assertThat(sampled.get("gpu" + gpu + "/memory_used_bytes").getMax()).isEqualTo(11_468.0 * MIB);
            assertThat(sampled.get("rank0/cpu_percent").getMax()).as("a busy loop keeps a core busy").isGreaterThan(50.0);
            assertThat(sampled.get("rank0/rss_bytes").getMax()).as("200 MiB touched").isGreaterThan(200.0 * MIB);

            MetricSeriesView cpu = api.systemMetrics().getJobSystemMetricSeries(id, "rank0/cpu_percent", null, null, null);
            List<Long> steps = cpu.getPoints().stream().map(ScalarPoint::getStep).toList();
            assertThat(steps).as("ms since the attempt started, rising").isSorted().allMatch(step -> step >= 0 && step < 60_000);
            assertThat(steps.getLast() - steps.getFirst()).isGreaterThanOrEqualTo(2_000);
            // Followed over SSE, the samples of the finished job come again, then its end.
            List<RawHttpClient.SseEvent> events = api.raw().follow("/jobs/" + id + "/system-metrics/stream", null, 10_000);
            assertThat(events.getLast().event()).isEqualTo("end");
            long streamedCpuSamples = events.stream().filter(event -> event.event().equals("points"))
                    .map(event -> RawHttpClient.JSON.readTree(event.data()))
                    .filter(chunk -> chunk.get("tag").asString().equals("rank0/cpu_percent"))
                    .mapToLong(chunk -> chunk.get("points").size()).sum();
            assertThat(streamedCpuSamples).isEqualTo(sampled.get("rank0/cpu_percent").getPoints());

            AgentGpu live = api.agents().listAgents().stream().filter(agent -> agent.getId().equals("sampled-node"))
                    .map(Agent::getGpus).findFirst().orElseThrow().get(1);
            assertThat(live.getUtilizationPercent()).isEqualTo(37.0);
            assertThat(live.getMemoryUsedMiB()).isEqualTo(11_468L);
            assertThat(live.getPowerWatts()).as("its board does not report power").isNull();

            RawHttpClient http = api.raw();
            Pattern gauge = Pattern.compile("trainyard_agent_gpu_utilization_percent\\{[^}]*gpu=\"2\"[^}]*host=\"[^\"]+\"[^}]*} 37\\.0");
            Eventually.await("the pool's GPU gauges", () -> gauge.matcher(http.get("/actuator/prometheus").raw().body()).find(),
                    Duration.ofSeconds(20));
        }

        try (RunningServer restarted = RunningServer.start(database, dataDir, "sampled-node")) {
            assertThat(series(restarted.api(), id)).isEqualTo(sampled);
        }
    }

    private static Map<String, MetricTagView> series(TrainyardClient api, UUID id) throws ApiException {
        return api.systemMetrics().listJobSystemMetrics(id).stream().collect(Collectors.toMap(MetricTagView::getTag, Function.identity()));
    }
}

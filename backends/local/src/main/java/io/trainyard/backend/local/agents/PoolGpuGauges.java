package io.trainyard.backend.local.agents;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.trainyard.core.BackgroundLoop;
import io.trainyard.database.DatabaseFailures;
import io.trainyard.protocol.GpuSample;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Each active agent's GPUs as Prometheus gauges ({@code trainyard_agent_gpu_utilization_percent{agent, host, gpu}}
 * and the memory, power and temperature beside it), from the samples the agents' heartbeats store: every replica
 * shows the whole pool, whichever replica the agents heartbeat through. Read again every few seconds; a GPU whose
 * agent is lost, or whose measure its board does not report, has no gauge.
 */
@Component
public class PoolGpuGauges extends BackgroundLoop {

    private static final Logger log = LoggerFactory.getLogger(PoolGpuGauges.class);
    private static final long INTERVAL_MILLIS = 5_000;

    private final AgentRegistry registry;
    private final List<Gauge> gauges;

    /** One measure of every GPU of the pool. */
    private record Gauge(MultiGauge gauge, Function<GpuSample, Number> measure) {
    }

    public PoolGpuGauges(AgentRegistry registry, MeterRegistry meters) {
        super("pool-gpu-gauges");
        this.registry = registry;
        this.gauges = List.of(
                gauge(meters, "trainyard.agent.gpu.utilization", "percent", "Share of the last sample period a kernel ran",
                        GpuSample::utilizationPercent),
                gauge(meters, "trainyard.agent.gpu.memory.used", "bytes", "GPU memory in use",
                        sample -> sample.memoryUsedMiB() == null ? null : sample.memoryUsedMiB() * 1024L * 1024L),
                gauge(meters, "trainyard.agent.gpu.power", "watts", "Power draw", GpuSample::powerWatts),
                gauge(meters, "trainyard.agent.gpu.temperature", "celsius", "Core temperature", GpuSample::temperatureCelsius));
    }

    private static Gauge gauge(MeterRegistry meters, String name, String unit, String description,
            Function<GpuSample, Number> measure) {
        return new Gauge(MultiGauge.builder(name).baseUnit(unit).description(description).register(meters), measure);
    }

    @Override
    protected void step() throws InterruptedException {
        try {
            List<Agent> agents = registry.all().stream()
                    .filter(agent -> agent.getState() == AgentState.ACTIVE && agent.getGpuSamples() != null)
                    .toList();
            for (Gauge gauge : gauges) {
                List<MultiGauge.Row<?>> rows = new ArrayList<>();
                for (Agent agent : agents) {
                    for (GpuSample sample : agent.getGpuSamples()) {
                        Number value = gauge.measure().apply(sample);
                        if (value != null) {
                            rows.add(MultiGauge.Row.of(Tags.of("agent", agent.getId(), "host", agent.getHost(),
                                    "gpu", Integer.toString(sample.index())), value));
                        }
                    }
                }
                gauge.gauge().register(rows, true);
            }
        } catch (RuntimeException e) {
            if (!DatabaseFailures.isUnreachable(e)) {
                log.warn("Reading the pool's GPU samples failed: {}", e.toString());
            }
        }
        Thread.sleep(INTERVAL_MILLIS);
    }
}

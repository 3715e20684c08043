package io.trainyard.agent;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import io.trainyard.agent.system.NvidiaSmi;
import io.trainyard.protocol.Gpu;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Finds this host's GPUs with {@code nvidia-smi}; a host without it (or without GPUs) has none. */
public final class GpuDiscovery {

    private static final Logger log = LoggerFactory.getLogger(GpuDiscovery.class);

    private GpuDiscovery() {
    }

    public static List<Gpu> discover(String nvidiaSmi) {
        try {
            return parse(new NvidiaSmi(nvidiaSmi).query("index,name,memory.total"));
        } catch (IOException e) {
            log.info("No GPUs: {} ({})", nvidiaSmi, e.getMessage());
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
    }

    /** Parses rows like {@code 0, NVIDIA H100 80GB HBM3, 81559}. */
    static List<Gpu> parse(List<String[]> rows) {
        List<Gpu> gpus = new ArrayList<>();
        for (String[] fields : rows) {
            if (fields.length < 3) {
                continue;
            }
            try {
                gpus.add(new Gpu(Integer.parseInt(fields[0]), fields[1], Long.parseLong(fields[2])));
            } catch (NumberFormatException e) {
                log.warn("Ignoring an nvidia-smi line I cannot read: {}", String.join(", ", fields));
            }
        }
        return gpus;
    }
}

package io.trainyard.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.trainyard.protocol.Gpu;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Finds this host's GPUs with {@code nvidia-smi}; a host without it (or without GPUs) has none. */
public final class GpuDiscovery {

    private static final Logger log = LoggerFactory.getLogger(GpuDiscovery.class);

    private GpuDiscovery() {
    }

    public static List<Gpu> discover(String nvidiaSmi) {
        Process process;
        try {
            process = new ProcessBuilder(nvidiaSmi, "--query-gpu=index,name,memory.total",
                    "--format=csv,noheader,nounits").redirectErrorStream(true).start();
        } catch (IOException e) {
            log.info("No GPUs: {} is not available ({})", nvidiaSmi, e.getMessage());
            return List.of();
        }
        try {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0) {
                log.warn("No GPUs: {} failed: {}", nvidiaSmi, output.strip());
                return List.of();
            }
            return parse(output);
        } catch (IOException e) {
            log.warn("No GPUs: reading {} failed: {}", nvidiaSmi, e.getMessage());
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        } finally {
            process.destroy();
        }
    }

    /** Parses lines like {@code 0, NVIDIA H100 80GB HBM3, 81559}. */
    static List<Gpu> parse(String csv) {
        List<Gpu> gpus = new ArrayList<>();
        for (String line : csv.strip().split("\n")) {
            String[] fields = line.split(",");
            if (fields.length < 3) {
                continue;
            }
            try {
                gpus.add(new Gpu(Integer.parseInt(fields[0].strip()), fields[1].strip(),
                        Long.parseLong(fields[2].strip())));
            } catch (NumberFormatException e) {
                log.warn("Ignoring an nvidia-smi line I cannot read: {}", line);
            }
        }
        return gpus;
    }
}

package io.trainyard.protocol;

/**
 * What one GPU was doing when sampled ({@code nvidia-smi --query-gpu}). A measure the GPU does not report
 * ({@code [N/A]}, e.g. power on some boards) is null.
 *
 * @param index the GPU's index on its host
 * @param utilizationPercent the share of the last sample period in which a kernel ran
 */
public record GpuSample(int index, Double utilizationPercent, Long memoryUsedMiB,
        Double powerWatts, Double temperatureCelsius) {
}

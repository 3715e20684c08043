package io.trainyard.backend.local;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code trainyard.local.*} for the pool of this host.
 *
 * @param cpuSlots trainer processes this host runs at once when it has no GPUs (default: its CPU count)
 * @param nvidiaSmi the {@code nvidia-smi} program used to discover GPUs; absent means no GPUs
 * @param python the Python that runs the small per-process supervisor
 * @param cancelGracePeriod time between SIGTERM and SIGKILL when a run is cancelled or times out
 * @param masterAddr the torch.distributed rendezvous address given to a job's processes
 * @param cpuDockerUri passed as {@code --cpu_docker_uri} to the legacy trainer when set
 * @param cudaDockerUri passed as {@code --cuda_docker_uri} to the legacy trainer when set
 */
@ConfigurationProperties("trainyard.local")
public record LocalBackendProperties(
        Integer cpuSlots,
        @DefaultValue("nvidia-smi") String nvidiaSmi,
        @DefaultValue("python3") String python,
        @DefaultValue("10s") Duration cancelGracePeriod,
        @DefaultValue("127.0.0.1") String masterAddr,
        String cpuDockerUri,
        String cudaDockerUri) {

    public LocalBackendProperties {
        if (cpuSlots == null || cpuSlots < 1) {
            cpuSlots = Runtime.getRuntime().availableProcessors();
        }
    }
}

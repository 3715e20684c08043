package io.trainyard.backend.local;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.trainyard.agent.sandbox.TrainerAccount;
import io.trainyard.agent.sandbox.TrainerIsolation;
import io.trainyard.agent.trainer.TrainerInvocation;
import io.trainyard.launch.TrainerImages;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Settings under {@code trainyard.local.*}: the pool's defaults, and how the server's own (embedded) agent
 * runs trainers on this host. Agents on other hosts take the same settings as command-line arguments.
 *
 * @param embeddedAgent whether this server runs an agent for its own host (off: only remote agents run jobs)
 * @param cpuSlots trainer processes this host runs at once when it has no GPUs (default: its CPU count)
 * @param nvidiaSmi the {@code nvidia-smi} program used to discover GPUs and sample their use; absent means no GPUs
 * @param python the Python that runs the small per-process supervisor
 * @param cancelGracePeriod time between SIGTERM and SIGKILL when a run is cancelled or times out
 * @param masterAddr the torch.distributed rendezvous address given to a job's processes
 * @param maxLogBacklog per output file, how much unread output an agent keeps for shipping while the server
 *     is away; past it the oldest unread part is skipped with a marker line
 * @param cpuDockerUri GiGL's {@code cpu_docker_uri} of jobs that name none (the legacy trainer's
 *     {@code --cpu_docker_uri}, every trainer's {@code GIGL_CPU_DOCKER_URI}); default GiGL's release image
 * @param cudaDockerUri the same for {@code cuda_docker_uri}; default GiGL's release image
 * @param trainerPath folders put first on the PATH of the trainers the server's own agent starts (the
 *     environment they run in); default: the runtime's virtual environment {@code runtime/.venv/bin} when the
 *     server is started from a checkout where it exists, else none (the server's own PATH)
 * @param trainerIsolation {@code sandbox}: each trainer in a bubblewrap sandbox (as {@code trainerUid} when the
 *     server runs as root); {@code none}: with the server's own rights
 * @param trainerUid {@code UID} or {@code UID:GID}, the account a root server's agent runs sandboxed trainers as
 * @param hiddenFiles more secret files of this host that no trainer may read (the TLS key and the Google
 *     credentials file the server uses are hidden without being named here)
 * @param systemMetricsInterval how often the server's own agent samples each job's GPU, CPU, memory and I/O use
 */
@ConfigurationProperties("trainyard.local")
public record LocalBackendProperties(
        @DefaultValue("true") boolean embeddedAgent,
        Integer cpuSlots,
        @DefaultValue("nvidia-smi") String nvidiaSmi,
        @DefaultValue("python3") String python,
        @DefaultValue("10s") Duration cancelGracePeriod,
        @DefaultValue("127.0.0.1") String masterAddr,
        @DefaultValue("256MB") DataSize maxLogBacklog,
        @DefaultValue(TrainerImages.GIGL_RELEASE_CPU_IMAGE) String cpuDockerUri,
        @DefaultValue(TrainerImages.GIGL_RELEASE_CUDA_IMAGE) String cudaDockerUri,
        List<Path> trainerPath,
        @DefaultValue("sandbox") TrainerIsolation trainerIsolation,
        @DefaultValue("" + TrainerAccount.DEFAULT_ID) String trainerUid,
        List<Path> hiddenFiles,
        @DefaultValue("5s") Duration systemMetricsInterval) {

    private static final Path RUNTIME_ENVIRONMENT = Path.of("runtime", ".venv", "bin");

    public LocalBackendProperties {
        if (cpuSlots == null || cpuSlots < 1) {
            cpuSlots = Runtime.getRuntime().availableProcessors();
        }
        if (trainerPath == null) {
            trainerPath = Files.isDirectory(RUNTIME_ENVIRONMENT) ? List.of(RUNTIME_ENVIRONMENT) : List.of();
        }
        trainerPath = trainerPath.stream().map(folder -> folder.toAbsolutePath().normalize()).toList();
        hiddenFiles = hiddenFiles == null ? List.of() : hiddenFiles.stream().map(file -> file.toAbsolutePath().normalize()).toList();
        // An image set to nothing means GiGL's own, as a job naming none gets in GiGL's launcher.
        cpuDockerUri = cpuDockerUri == null || cpuDockerUri.isBlank() ? TrainerImages.GIGL_RELEASE_CPU_IMAGE : cpuDockerUri.strip();
        cudaDockerUri = cudaDockerUri == null || cudaDockerUri.isBlank() ? TrainerImages.GIGL_RELEASE_CUDA_IMAGE : cudaDockerUri.strip();
    }

    /** The account sandboxed trainers run as when the server runs as root. */
    public TrainerAccount trainerAccount() {
        return TrainerAccount.parse(trainerUid);
    }

    /** The trainer images of jobs that name none. */
    public TrainerImages defaultImages() {
        return new TrainerImages(cpuDockerUri, cudaDockerUri);
    }

    /** How the server's own agent starts trainers, and how a dry run shows it. */
    public TrainerInvocation trainerInvocation() {
        return new TrainerInvocation(masterAddr, trainerPath);
    }
}

package io.trainyard.job;

/**
 * A job's own choice of the container images GiGL's launcher takes as {@code --cpu_docker_uri} and
 * {@code --cuda_docker_uri}; a null one falls back to the server's default.
 */
public record TrainerImages(String cpuDockerUri, String cudaDockerUri) {

    public static final TrainerImages SERVER_DEFAULTS = new TrainerImages(null, null);

    /** This job's image of the kind asked for, else {@code serverDefault}. */
    public String choose(boolean cuda, String serverDefault) {
        String own = cuda ? cudaDockerUri : cpuDockerUri;
        return own != null ? own : serverDefault;
    }

    /** These images where set, else those of {@code defaults}. */
    public TrainerImages orElse(TrainerImages defaults) {
        return new TrainerImages(choose(false, defaults.cpuDockerUri()), choose(true, defaults.cudaDockerUri()));
    }
}

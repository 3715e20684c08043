package io.trainyard.launch;

/**
 * A job's own choice of the container images GiGL's launcher takes as {@code --cpu_docker_uri} and
 * {@code --cuda_docker_uri}; a null one falls back to the server's default.
 */
public record TrainerImages(String cpuDockerUri, String cudaDockerUri) {

    public static final TrainerImages SERVER_DEFAULTS = new TrainerImages(null, null);

    /**
     * GiGL's release images (DEFAULT_GIGL_RELEASE_SRC_IMAGE_CPU and _CUDA), which GiGL's launcher runs when
     * no image is named; the defaults of the server's image settings.
     */
    public static final String GIGL_RELEASE_CPU_IMAGE =
            "us-central1-docker.pkg.dev/external-snap-ci-github-gigl/public-gigl/src-cpu:0.0.9.dev20251005191521";
    public static final String GIGL_RELEASE_CUDA_IMAGE =
            "us-central1-docker.pkg.dev/external-snap-ci-github-gigl/public-gigl/src-cuda:0.0.9.dev20251005191521";

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

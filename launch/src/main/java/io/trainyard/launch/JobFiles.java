package io.trainyard.launch;

/**
 * Where a backend puts a job's files, as URIs the trainer can read: the frozen task and resource configs it
 * writes for the run, and GiGL's trainer asset folder (a local folder on an agent, {@code gs://} on Vertex AI).
 */
public record JobFiles(String taskConfig, String resourceConfig, String trainerAssets) {
}

package io.trainyard.api.jobs;

/** A job's configs as submitted (inline or read from their URI), YAML text. */
public record JobConfigsView(String taskConfig, String resourceConfig) {
}

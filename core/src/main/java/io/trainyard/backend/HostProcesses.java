package io.trainyard.backend;

import java.util.ArrayList;
import java.util.List;

import io.trainyard.job.Job;
import io.trainyard.launch.CommandWords;
import io.trainyard.validation.InvalidRequestException;
import io.trainyard.validation.Violation;

/**
 * What a backend whose trainers are processes on hosts it reaches through a filesystem (the local pool, Slurm) checks
 * of a job at submission: its outputs are paths, and its trainer (and graph-store storage) command splits into words (no
 * shell runs it).
 */
public final class HostProcesses {

    private HostProcesses() {
    }

    /** @throws InvalidRequestException naming each field that such a backend cannot run as given */
    public static void validate(Job job, String backend) {
        List<Violation> violations = new ArrayList<>();
        job.getTask().trainedModelMetadata().byField().forEach((field, uri) -> {
            if (uri.startsWith("gs://")) {
                violations.add(new Violation("taskConfig.sharedConfig.trainedModelMetadata." + field,
                        "'" + uri + "' is on GCS; the " + backend + " backend writes outputs to local paths or file:// URIs"));
            }
        });
        if (job.getTask().shouldRunGltBackend()) {
            checkWords(job.getTask().trainerCommand(), "taskConfig.trainerConfig.command", violations);
        }
        if (job.getTask().graphStoreStorage() != null) {
            checkWords(job.getTask().graphStoreStorage().command(), "taskConfig.trainerConfig.graphStoreStorageConfig.command",
                    violations);
        }
        if (!violations.isEmpty()) {
            throw new InvalidRequestException(violations);
        }
    }

    private static void checkWords(String command, String field, List<Violation> violations) {
        try {
            CommandWords.split(command);
        } catch (IllegalArgumentException e) {
            violations.add(new Violation(field, e.getMessage()));
        }
    }
}

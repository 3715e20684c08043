package io.trainyard.dispatch;

import java.util.List;
import java.util.Map;

/**
 * What a backend would launch for a job: answered by a dry run, and what the local backend executes.
 *
 * @param placement where the workers would run (host, GPUs or CPU slots)
 * @param workDir the job's work folder, where frozen configs and process logs are written
 */
public record LaunchPlan(String backend, Map<String, Object> placement, String workDir, List<Worker> workers) {

    /** One trainer process: its argv (never run through a shell) and the environment it adds. */
    public record Worker(int rank, List<String> argv, Map<String, String> environment) {
    }
}

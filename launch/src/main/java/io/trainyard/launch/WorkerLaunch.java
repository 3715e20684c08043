package io.trainyard.launch;

import java.util.List;
import java.util.Map;

/** One trainer process to start: its argv (never run through a shell) and the environment it adds. */
public record WorkerLaunch(int rank, List<String> argv, Map<String, String> environment) {
}

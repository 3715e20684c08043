package io.trainyard.core;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.trainyard.protocol.Registration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code trainyard.*}.
 *
 * @param dataDir where job work folders (and the embedded database, when used) live; survives restarts
 * @param nodeId this server's name among replicas sharing a database (default: the host name); the jobs
 *     it runs are assigned to it, and it re-attaches to them after a restart
 * @param defaultJobTimeout the timeout of a job whose submission and resource config give none
 * @param dispatchPollInterval how often the dispatcher looks for work it was not told about (jobs
 *     submitted through another replica)
 * @param priorityAgeing a queued job gains one priority point per this much waiting, so a stream of new
 *     jobs cannot starve an old one
 * @param starvationThreshold a job that has waited this long and still does not fit stops smaller jobs
 *     behind it from being placed on this node (backfill), so capacity drains for it
 * @param maxLogLinesPerAttempt lines stored for one attempt of a job; past it a marker line says so and the
 *     rest stays only in the worker's output files
 * @param configRoots the only folders local config files ({@code taskConfigUri}, {@code resourceConfigUri}) are
 *     read from; none by default, so a submission can name no file of the server's host
 */
@ConfigurationProperties("trainyard")
public record TrainyardProperties(
        @DefaultValue(".trainyard") Path dataDir,
        String nodeId,
        @DefaultValue("24h") Duration defaultJobTimeout,
        @DefaultValue("250ms") Duration dispatchPollInterval,
        @DefaultValue("60s") Duration priorityAgeing,
        @DefaultValue("10m") Duration starvationThreshold,
        @DefaultValue("10000000") long maxLogLinesPerAttempt,
        List<Path> configRoots) {

    public TrainyardProperties {
        dataDir = dataDir.toAbsolutePath().normalize();
        configRoots = configRoots == null ? List.of() : List.copyOf(configRoots);
        if (nodeId == null || nodeId.isBlank()) {
            nodeId = Registration.localHostName();
        }
    }
}

package io.trainyard.protocol;

import java.util.List;

/**
 * The server's answer to a registration.
 *
 * @param epoch stamps every later message of this agent process; a newer registration makes it stale
 * @param heartbeatIntervalMillis how often to heartbeat (the lease is several of these)
 * @param runs the runs the server has on this agent: a restarted agent re-attaches to them or reports them
 *     lost; any other trainer process it finds is stale and is killed
 */
public record Registered(long epoch, long heartbeatIntervalMillis, List<KnownRun> runs) {
}

package io.trainyard.protocol;

import java.util.List;

/**
 * The server's answer to a registration.
 *
 * @param epoch stamps every later message of this agent process; a newer registration makes it stale
 * @param heartbeatIntervalMillis how often to heartbeat (the lease is several of these)
 * @param runs the runs the server has on this agent: a restarted agent re-attaches to them or reports them
 *     lost; any other trainer process it finds is stale and is killed
 * @param leaseMillis how long a lease lasts: an agent that heard nothing from any server for about this long
 *     kills its runs itself, before the server can declare it lost (null from servers that predate it)
 */
public record Registered(long epoch, long heartbeatIntervalMillis, List<KnownRun> runs, Long leaseMillis) {
}

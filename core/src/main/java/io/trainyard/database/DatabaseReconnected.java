package io.trainyard.database;

import java.time.Instant;

/**
 * This replica reached the database again after it could not: published (synchronously, on the watch's
 * thread) before the replica counts the database as up, so a listener that fails keeps it down and is run
 * again on the next successful probe.
 *
 * @param replica this replica's node id
 * @param lostAt when this replica first failed to reach the database (its own clock)
 * @param backAt when it reached it again (its own clock)
 */
public record DatabaseReconnected(String replica, Instant lostAt, Instant backAt) {
}

package io.trainyard.protocol;

/**
 * A log batch is stored (or was already).
 *
 * @param quotaReached the attempt's log quota is used up: later lines would be dropped, so the agent stops
 *     shipping them
 */
public record LogAck(long batch, boolean quotaReached) {
}

package io.trainyard.scalars;

/**
 * One point of a scalar series.
 *
 * @param wallTime seconds since the epoch, as the trainer's writer recorded it
 * @param rank the trainer process that wrote it
 */
public record ScalarPoint(long step, double wallTime, double value, int rank) {
}

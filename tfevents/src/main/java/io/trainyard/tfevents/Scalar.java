package io.trainyard.tfevents;

/**
 * One scalar value of an event file.
 *
 * @param wallTime seconds since the epoch, as the writer recorded it
 */
public record Scalar(String tag, long step, double wallTime, double value) {
}

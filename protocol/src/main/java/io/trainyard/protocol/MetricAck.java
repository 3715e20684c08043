package io.trainyard.protocol;

/** A metric batch is stored (or was already). */
public record MetricAck(long batch) {
}

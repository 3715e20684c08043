package io.trainyard.protocol;

/** The server took the start; {@code cancelling}: a cancel came while the run was starting. */
public record StartedAck(boolean cancelling) {
}

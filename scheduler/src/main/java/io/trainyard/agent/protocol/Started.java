package io.trainyard.agent.protocol;

/** The run's processes are started; {@code runState} is what finds them again after a restart. */
public record Started(long epoch, String runState) {
}

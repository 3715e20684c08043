package io.trainyard.backend.local.agents;

/**
 * A run's batch came before its predecessor was stored (both were on their way at once, and this one took the
 * job's row lock first): nothing is stored, and the agent sends it again.
 */
public class BatchAheadException extends RuntimeException {

    public BatchAheadException(String message) {
        super(message);
    }
}

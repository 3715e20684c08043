package io.trainyard.backend.local.agents;

/**
 * A message from an agent process that no longer speaks for its host (a newer registration replaced it, or
 * it was declared lost), or about an attempt that is no longer the job's current one: it changes nothing.
 */
public class StaleAgentException extends RuntimeException {

    public StaleAgentException(String message) {
        super(message);
    }
}

package io.trainyard.agent.connection;

/**
 * The server refused a message as stale (409): this agent process was replaced or declared lost, or the run
 * is no longer the job's current attempt here. It will never be taken, so it is not retried.
 */
public class StaleRunException extends RuntimeException {

    public StaleRunException(String message) {
        super(message);
    }
}

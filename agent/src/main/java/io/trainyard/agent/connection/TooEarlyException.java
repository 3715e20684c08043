package io.trainyard.agent.connection;

import java.io.IOException;

/**
 * The server answered 425: a log batch came before its predecessor was stored (both were on their way at once).
 * Nothing is wrong with the server; the batch is sent again as soon as the one before it may be stored.
 */
public class TooEarlyException extends IOException {

    public TooEarlyException(String message) {
        super(message);
    }
}

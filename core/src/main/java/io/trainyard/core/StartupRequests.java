package io.trainyard.core;

/**
 * Requests the server must answer while it is still starting, because its start waits for them: its own agent's
 * registration, for one. Every other request answers 503 until the server is ready.
 */
public interface StartupRequests {

    /** Whether a request with this method to this path is answered before the server is ready. */
    boolean admits(String method, String path);
}

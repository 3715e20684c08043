package io.trainyard.core;

/**
 * Told by the server, on its embedded PostgreSQL, just before it starts that database: what must happen before the
 * server has a database, and so before it could declare anything lost, hooks in here (the local backend takes its
 * own agent's fence over). A server on an external database never calls it.
 */
public interface EmbeddedDatabaseStart {

    /** Runs before the embedded database starts; the server's start waits for it. */
    void beforeStart();
}

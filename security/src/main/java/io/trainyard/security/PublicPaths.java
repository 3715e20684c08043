package io.trainyard.security;

import java.util.List;

/**
 * Paths anyone may {@code GET} before signing in, declared by the part of the server that serves them (the
 * dashboard's pages and files), so that security names none of them.
 */
public interface PublicPaths {

    /** Ant-style path patterns, e.g. {@code /assets/**}. */
    List<String> paths();
}

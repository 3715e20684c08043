package io.trainyard.security;

/** What a user may do in a project; each role includes the ones before it. */
public enum Role {
    /** Read jobs, logs and metrics. */
    VIEWER,
    /** Also submit, cancel and retry jobs. */
    EDITOR,
    /** Also manage the project's members and settings. */
    ADMIN;

    public boolean includes(Role other) {
        return compareTo(other) >= 0;
    }

    /** The stronger of two roles (a user may hold one by membership and another through an OIDC group). */
    public static Role strongest(Role a, Role b) {
        return a == null ? b : b == null ? a : a.includes(b) ? a : b;
    }
}

package io.trainyard.security;

import java.util.Optional;
import java.util.UUID;

import io.trainyard.job.JobNotFoundException;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;

/**
 * A caller's right to read a job, checked again and again while a request lasts (an SSE stream may follow a job
 * for hours): its credential is authenticated anew, so a revoked or expired token, or a deleted user, ends the
 * right (401); and its role in the job's project is looked up anew, so a member removed from the project, or left
 * with a role too low, loses it too (404 and 403, as a new request would be answered).
 */
public final class LastingAccess {

    /** Why the caller may no longer read the job: the status and words of a problem detail. */
    public record Refusal(int status, String title, String detail) {
    }

    private final UUID jobId;
    private final String project;
    private final Role role;
    private final Authentication authentication;

    LastingAccess(UUID jobId, String project, Role role, Authentication authentication) {
        this.jobId = jobId;
        this.project = project;
        this.role = role;
        this.authentication = authentication;
    }

    /** Nothing while the caller may still read the job; else why not. */
    public Optional<Refusal> refusal() {
        if (!(authentication instanceof CallerAuthentication lasting)) {
            // Security switched off: every request acts as a global admin, which nothing can revoke.
            return Optional.empty();
        }
        Caller now;
        try {
            now = lasting.renewed();
        } catch (AuthenticationException e) {
            return Optional.of(new Refusal(401, "Authentication required", e.getMessage()));
        }
        if (!(now instanceof Caller.User user) || user.roleIn(project) == null) {
            JobNotFoundException gone = new JobNotFoundException(jobId);
            return Optional.of(new Refusal(404, gone.title(), gone.getMessage()));
        }
        Role held = user.roleIn(project);
        if (!held.includes(role)) {
            return Optional.of(new Refusal(403, "Forbidden", ProjectAccess.roleTooLow(user, held, project, role)));
        }
        return Optional.empty();
    }
}

package io.trainyard.security;

import java.util.Set;
import java.util.UUID;

import io.trainyard.job.JobNotFoundException;
import io.trainyard.job.JobQueries;
import io.trainyard.security.projects.ProjectNotFoundException;
import io.trainyard.security.projects.Projects;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.stereotype.Component;

/**
 * What the current user may do in a project, and so with its jobs. A project (or job) the user has no role
 * in answers as if it did not exist (404), so ids and names leak nothing; one it may see but not change
 * answers 403.
 */
@Component
public class ProjectAccess {

    private final JobQueries jobs;
    private final Projects projects;

    public ProjectAccess(JobQueries jobs, Projects projects) {
        this.jobs = jobs;
        this.projects = projects;
    }

    /** The projects the current user may see; null for a global admin, who sees them all. */
    public Set<String> visibleProjects() {
        Caller.User user = Callers.currentUser();
        return user.globalAdmin() ? null : Set.copyOf(user.roles().keySet());
    }

    /**
     * Checks that the current user holds {@code role} in the project.
     *
     * @throws ProjectNotFoundException when the project does not exist or the user has no role in it
     * @throws AccessDeniedException when the user's role there is lower
     */
    public void requireProject(String project, Role role) {
        Caller.User user = Callers.currentUser();
        Role held = user.roleIn(project);
        if (held == null || (user.globalAdmin() && projects.find(project).isEmpty())) {
            throw new ProjectNotFoundException(project);
        }
        if (!held.includes(role)) {
            throw new AccessDeniedException(roleTooLow(user, held, project, role));
        }
    }

    static String roleTooLow(Caller.User user, Role held, String project, Role needed) {
        return user.name() + " is " + held.name().toLowerCase() + " in project '" + project + "'; this needs "
                + needed.name().toLowerCase();
    }

    /** The same for the project of a job; a job the user may not see is not found. */
    public void requireJob(UUID jobId, Role role) {
        try {
            requireProject(jobs.projectOf(jobId), role);
        } catch (ProjectNotFoundException e) {
            throw new JobNotFoundException(jobId);
        }
    }

    /**
     * Checks as {@link #requireJob} does, and answers the same check for the rest of a long request (an SSE
     * stream), made against the caller as it will be then.
     */
    public LastingAccess requireJobThroughout(UUID jobId, Role role) {
        requireJob(jobId, role);
        return new LastingAccess(jobId, jobs.projectOf(jobId), role, SecurityContextHolder.getContext().getAuthentication());
    }

    /** Whether the current user may see the job's project (for views that show other projects' jobs only by count). */
    public boolean canSee(String project) {
        return Callers.currentUser().roleIn(project) != null;
    }
}

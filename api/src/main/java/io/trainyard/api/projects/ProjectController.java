package io.trainyard.api.projects;

import java.net.URI;
import java.time.Instant;
import java.util.List;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.trainyard.api.users.UserController;
import io.trainyard.security.Caller;
import io.trainyard.security.Callers;
import io.trainyard.security.ProjectAccess;
import io.trainyard.security.Role;
import io.trainyard.security.audit.Audited;
import io.trainyard.security.projects.ProjectNotFoundException;
import io.trainyard.security.projects.Projects;
import io.trainyard.security.users.Users;
import io.trainyard.validation.ConflictException;
import io.trainyard.validation.NotFoundException;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Projects and their members. Global admins create projects; a project's admins manage its members and
 * settings; its viewers see it. A project the caller has no role in answers 404.
 */
@RestController
@RequestMapping("/projects")
@Tag(name = "projects", description = "Projects, their members and their roles")
public class ProjectController {

    public static final String NAME = "^[a-z0-9][a-z0-9-]{0,62}$";

    /** Any text but NUL, which PostgreSQL text cannot hold. */
    static final String DESCRIPTION = "^[^\\x00]*$";

    private final Projects projects;
    private final Users users;
    private final ProjectAccess access;
    private final Callers callers;

    public ProjectController(Projects projects, Users users, ProjectAccess access, Callers callers) {
        this.projects = projects;
        this.users = users;
        this.access = access;
        this.callers = callers;
    }

    /** @param role the caller's role in it */
    @Schema(name = "Project")
    public record ProjectView(String name, String description, boolean allowGcsConfigs, Instant createdAt, @Nullable Role role) {
    }

    public record NewProject(
            @NotNull @Pattern(regexp = NAME, message = "must be 1-63 lowercase letters, digits or '-', starting with a letter or digit")
            String name,
            @Size(max = 500) @Pattern(regexp = DESCRIPTION, message = "must not contain NUL characters") @Nullable String description,
            @Nullable Boolean allowGcsConfigs) {
    }

    /** A change of settings; an absent field keeps its value. */
    public record ProjectChange(
            @Size(max = 500) @Pattern(regexp = DESCRIPTION, message = "must not contain NUL characters") @Nullable String description,
            @Nullable Boolean allowGcsConfigs) {
    }

    @Schema(name = "Member")
    public record MemberView(String user, Role role) {
    }

    public record Membership(@NotNull Role role) {
    }

    @GetMapping
    @Operation(operationId = "listProjects", summary = "The projects the caller may see, with its role in each")
    public List<ProjectView> list() {
        Caller.User user = Callers.currentUser();
        return projects.all(access.visibleProjects()).stream().map(project -> view(project, user)).toList();
    }

    @PostMapping
    @Audited("project.create")
    @Operation(operationId = "createProject", summary = "Create a project (global admins)")
    @ApiResponse(responseCode = "201", description = "The new project",
            headers = @Header(name = HttpHeaders.LOCATION, description = "Its URL, /projects/{name}",
                    schema = @Schema(type = "string", format = "uri-reference")))
    @ApiResponse(responseCode = "409", description = "A project of that name exists")
    public ResponseEntity<ProjectView> create(@RequestBody @Valid NewProject project) {
        Caller.User user = Callers.currentUser();
        if (!user.globalAdmin()) {
            throw new AccessDeniedException("only global admins create projects");
        }
        if (!projects.create(project.name(), project.description() == null ? "" : project.description(),
                Boolean.TRUE.equals(project.allowGcsConfigs()))) {
            throw new ConflictException("project '" + project.name() + "' exists already");
        }
        return ResponseEntity.created(URI.create("/projects/" + project.name()))
                .body(view(projects.find(project.name()).orElseThrow(), user));
    }

    @GetMapping("/{name}")
    @Operation(operationId = "getProject", summary = "A project the caller may see")
    public ProjectView get(@Parameter(schema = @Schema(pattern = NAME)) @PathVariable String name) {
        access.requireProject(name, Role.VIEWER);
        return view(projects.find(name).orElseThrow(() -> new ProjectNotFoundException(name)), Callers.currentUser());
    }

    @PatchMapping("/{name}")
    @Audited("project.update")
    @Operation(operationId = "updateProject", summary = "Change a project's description or whether it allows gs:// configs (project admins)")
    public ProjectView update(@Parameter(schema = @Schema(pattern = NAME)) @PathVariable String name, @RequestBody @Valid ProjectChange change) {
        access.requireProject(name, Role.ADMIN);
        Projects.Project current = projects.find(name).orElseThrow(() -> new ProjectNotFoundException(name));
        projects.update(name, change.description() == null ? current.description() : change.description(),
                change.allowGcsConfigs() == null ? current.allowGcsConfigs() : change.allowGcsConfigs());
        return view(projects.find(name).orElseThrow(), Callers.currentUser());
    }

    @GetMapping("/{name}/members")
    @Operation(operationId = "listProjectMembers", summary = "Who belongs to the project, with which role")
    public List<MemberView> members(@Parameter(schema = @Schema(pattern = NAME)) @PathVariable String name) {
        access.requireProject(name, Role.VIEWER);
        return projects.members(name).stream().map(member -> new MemberView(member.user(), member.role())).toList();
    }

    @PutMapping("/{name}/members/{user}")
    @Audited("member.set")
    @Operation(operationId = "setProjectMember", summary = "Give a user a role in the project (project admins)")
    public MemberView setMember(@Parameter(schema = @Schema(pattern = NAME)) @PathVariable String name,
            @Parameter(schema = @Schema(pattern = UserController.NAME)) @PathVariable String user,
            @RequestBody @Valid Membership membership) {
        access.requireProject(name, Role.ADMIN);
        if (users.find(user).isEmpty()) {
            throw new NotFoundException("No such user", "no user '" + user + "'; a global admin creates users (POST /users)");
        }
        projects.setMember(name, user, membership.role());
        callers.forget(user);
        return new MemberView(user, membership.role());
    }

    @DeleteMapping("/{name}/members/{user}")
    @Audited("member.remove")
    @Operation(operationId = "removeProjectMember", summary = "Take a user's role in the project away (project admins)")
    @ApiResponse(responseCode = "204", description = "Removed")
    public ResponseEntity<Void> removeMember(@Parameter(schema = @Schema(pattern = NAME)) @PathVariable String name,
            @Parameter(schema = @Schema(pattern = UserController.NAME)) @PathVariable String user) {
        access.requireProject(name, Role.ADMIN);
        if (!projects.removeMember(name, user)) {
            throw new NotFoundException("No such member", "'" + user + "' is not a member of project '" + name + "'");
        }
        callers.forget(user);
        return ResponseEntity.noContent().build();
    }

    private static ProjectView view(Projects.Project project, Caller.User user) {
        return new ProjectView(project.name(), project.description(), project.allowGcsConfigs(), project.createdAt(),
                user.roleIn(project.name()));
    }
}

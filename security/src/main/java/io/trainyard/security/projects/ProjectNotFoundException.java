package io.trainyard.security.projects;

import io.trainyard.validation.NotFoundException;

/** No such project, or none the caller may see. */
public class ProjectNotFoundException extends NotFoundException {

    public ProjectNotFoundException(String project) {
        super("No such project", "no project '" + project + "'");
    }
}

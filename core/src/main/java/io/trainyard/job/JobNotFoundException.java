package io.trainyard.job;

import java.util.UUID;

import io.trainyard.validation.NotFoundException;

public class JobNotFoundException extends NotFoundException {

    public JobNotFoundException(UUID id) {
        super("No such job", "no job with id " + id);
    }
}

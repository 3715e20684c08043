package io.trainyard.job;

/** The request conflicts with the job's current state or with an earlier request (HTTP 409). */
public class JobConflictException extends RuntimeException {

    public JobConflictException(String message) {
        super(message);
    }
}

package io.trainyard.validation;

/**
 * The request conflicts with the current state of what it names (a job that already ended, a project that
 * exists) or with an earlier request (an Idempotency-Key used for another body): HTTP 409.
 */
public class ConflictException extends RuntimeException {

    public ConflictException(String message) {
        super(message);
    }
}

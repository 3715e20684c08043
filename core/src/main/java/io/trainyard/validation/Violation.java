package io.trainyard.validation;

/**
 * One thing wrong with a submission: the dotted path of the offending field (e.g.
 * {@code taskConfig.trainerConfig.command}) and what is wrong with it.
 */
public record Violation(String field, String message) {

    @Override
    public String toString() {
        return field + ": " + message;
    }
}

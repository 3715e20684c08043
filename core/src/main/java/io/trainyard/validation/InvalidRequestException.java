package io.trainyard.validation;

import java.util.List;

/**
 * A request broke one or more rules: a submission's fields or configs, a query parameter, a header, what an
 * agent sent. Every violation found is carried, not just the first, each with the path of its field.
 */
public class InvalidRequestException extends RuntimeException {

    private final List<Violation> violations;

    public InvalidRequestException(List<Violation> violations) {
        super(violations.size() + " invalid field(s): " + violations);
        this.violations = List.copyOf(violations);
    }

    public InvalidRequestException(String field, String message) {
        this(List.of(new Violation(field, message)));
    }

    public List<Violation> violations() {
        return violations;
    }
}

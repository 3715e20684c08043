package io.trainyard.gigl;

import java.util.List;

/** A submission broke one or more rules; every violation found is carried, not just the first. */
public class InvalidConfigException extends RuntimeException {

    private final List<Violation> violations;

    public InvalidConfigException(List<Violation> violations) {
        super(violations.size() + " invalid field(s): " + violations);
        this.violations = List.copyOf(violations);
    }

    public InvalidConfigException(String field, String message) {
        this(List.of(new Violation(field, message)));
    }

    public List<Violation> violations() {
        return violations;
    }
}

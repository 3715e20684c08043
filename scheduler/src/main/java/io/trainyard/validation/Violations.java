package io.trainyard.validation;

import java.util.ArrayList;
import java.util.List;

/** Collects violations while a whole request or document is checked, so the user hears of all of them at once. */
public final class Violations {

    private final List<Violation> found = new ArrayList<>();

    public void add(String field, String message) {
        found.add(new Violation(field, message));
    }

    public boolean isEmpty() {
        return found.isEmpty();
    }

    public List<Violation> list() {
        return List.copyOf(found);
    }

    /** Throws if anything was found. */
    public void throwIfAny() {
        if (!found.isEmpty()) {
            throw new InvalidRequestException(found);
        }
    }
}

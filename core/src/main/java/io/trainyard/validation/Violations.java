package io.trainyard.validation;

import java.util.ArrayList;
import java.util.List;

/** Collects violations while a whole request or document is checked, so the user hears of all of them at once. */
public final class Violations {

    private final List<Violation> found = new ArrayList<>();

    /** Records a violation; the same one found twice (by two checks of one field) is recorded once. */
    public void add(String field, String message) {
        Violation violation = new Violation(field, message);
        if (!found.contains(violation)) {
            found.add(violation);
        }
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

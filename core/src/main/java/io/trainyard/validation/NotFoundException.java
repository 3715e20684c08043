package io.trainyard.validation;

/**
 * What a request names does not exist, or not for this caller (the two answer alike, so ids and names leak
 * nothing): HTTP 404. {@code title} says what kind of thing, e.g. "No such job".
 */
public class NotFoundException extends RuntimeException {

    private final String title;

    public NotFoundException(String title, String message) {
        super(message);
        this.title = title;
    }

    public String title() {
        return title;
    }
}

package io.trainyard.tfevents;

/** A record passed its checksum but is not a well-formed {@code Event} protobuf. */
public final class MalformedEventException extends Exception {

    public MalformedEventException(String message) {
        super(message);
    }
}

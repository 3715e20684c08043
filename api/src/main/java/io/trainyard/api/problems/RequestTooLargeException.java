package io.trainyard.api.problems;

import java.io.IOException;

/** Thrown while reading a request body past the server's limit (HTTP 413). */
public class RequestTooLargeException extends IOException {

    public RequestTooLargeException(long limit) {
        super("the request body is larger than the limit of " + limit + " bytes");
    }
}

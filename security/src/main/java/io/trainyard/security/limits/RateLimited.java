package io.trainyard.security.limits;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** A handler whose calls count against the caller's limits of this kind ({@link RateLimits}). */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
public @interface RateLimited {

    Kind value();

    enum Kind {
        /** A submission or dry run: reads and validates configs, writes a job. */
        SUBMISSION,
        /** A live stream (SSE): holds a connection and polls the database for as long as it lasts. */
        STREAM
    }
}

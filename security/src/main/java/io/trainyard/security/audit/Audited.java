package io.trainyard.security.audit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** A handler whose every call is written to the {@link AuditLog} once it is answered, as {@code action}. */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
public @interface Audited {

    /** What is done, e.g. {@code job.submit}. */
    String value();
}

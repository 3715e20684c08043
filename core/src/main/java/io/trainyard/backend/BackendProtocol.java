package io.trainyard.backend;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a controller whose endpoints only a backend's own processes speak (the local pool's agent protocol):
 * they stay out of the public API's OpenAPI document, the source of the generated clients; the backend
 * documents them in an OpenAPI group of its own.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface BackendProtocol {
}

package io.trainyard.openapi;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * What every error answer looks like, for the document only: the server writes Spring's {@code ProblemDetail}
 * (see {@code ApiProblems}), whose JSON has these fields.
 */
@NullMarked
@Schema(name = "Problem", description = "An RFC 9457 problem detail (application/problem+json)")
record Problem(
        @Schema(description = "A URI naming the kind of problem; absent (or about:blank) when the status says it all",
                example = "about:blank")
        @Nullable String type,
        @Schema(description = "A short summary of the kind of problem", example = "Invalid request")
        String title,
        @Schema(description = "The HTTP status", example = "422")
        int status,
        @Schema(description = "What went wrong with this request", example = "jobName is required")
        @Nullable String detail,
        @Schema(description = "The path of the request", example = "/jobs")
        @Nullable String instance,
        @Schema(description = "For invalid input: every offending field, by its path in the request")
        @Nullable List<FieldError> errors) {

    /** One invalid field: its path in the body (e.g. {@code retryPolicy.maxAttempts}) or a parameter's name. */
    @NullMarked
    @Schema(name = "FieldError")
    record FieldError(@Schema(example = "jobName") String field, @Schema(example = "is required") String message) {
    }
}

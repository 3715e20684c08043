package io.trainyard.api.tokens;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.jspecify.annotations.Nullable;

/**
 * A token to create.
 *
 * @param name what it is for, e.g. the machine or pipeline that will use it
 * @param expiresInDays its lifetime (default and longest: the server's {@code trainyard.security.token-lifetime}
 *     and {@code max-token-lifetime})
 */
public record NewToken(
        @NotNull @Size(min = 1, max = 64) @Pattern(regexp = NAME, message = "must not contain control characters") String name,
        @Min(1) @Max(3650) @Nullable Integer expiresInDays) {

    /** What a token's name may be: any text without control characters. */
    public static final String NAME = "^[^\\x00-\\x1F\\x7F]*$";
}

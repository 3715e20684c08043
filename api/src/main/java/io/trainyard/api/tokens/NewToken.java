package io.trainyard.api.tokens;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/**
 * A token to create.
 *
 * @param name what it is for, e.g. the machine or pipeline that will use it
 * @param expiresInDays its lifetime (default and longest: the server's {@code trainyard.security.token-lifetime}
 *     and {@code max-token-lifetime})
 */
public record NewToken(@NotBlank @Size(max = 64) String name, @Min(1) @Max(3650) Integer expiresInDays) {
}

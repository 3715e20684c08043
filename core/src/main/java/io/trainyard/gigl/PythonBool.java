package io.trainyard.gigl;

import java.util.Locale;
import java.util.Set;

/** GiGL parses its string feature flags with Python's {@code strtobool}; this is that function. */
public final class PythonBool {

    private static final Set<String> TRUE = Set.of("y", "yes", "t", "true", "on", "1");
    private static final Set<String> FALSE = Set.of("n", "no", "f", "false", "off", "0");

    private PythonBool() {
    }

    /** True, false, or null when {@code text} is not a value strtobool accepts. */
    public static Boolean parse(String text) {
        String lower = text.strip().toLowerCase(Locale.ROOT);
        if (TRUE.contains(lower)) {
            return Boolean.TRUE;
        }
        if (FALSE.contains(lower)) {
            return Boolean.FALSE;
        }
        return null;
    }
}

package io.trainyard.agent.sandbox;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The variables of the agent's environment that no trainer inherits: the agent's token, the server's settings
 * (Spring reads any of them, the database password included, from {@code SPRING_*} variables and JVM options), the
 * server's Google identity, and anything named like a secret. Trainers get their own secrets from their configs.
 */
public final class InheritedSecrets {

    private static final Set<String> PREFIXES = Set.of("TRAINYARD_", "SPRING_");
    private static final Set<String> NAMES = Set.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS",
            "GOOGLE_APPLICATION_CREDENTIALS", "PGPASSFILE");
    private static final Set<String> WORDS = Set.of("TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "API_KEY",
            "PRIVATE_KEY");

    private InheritedSecrets() {
    }

    /** Removes the secrets from an environment about to be handed to a trainer. */
    public static void removeFrom(Map<String, String> environment) {
        environment.keySet().removeIf(InheritedSecrets::isSecret);
    }

    static boolean isSecret(String name) {
        String upper = name.toUpperCase(Locale.ROOT);
        return NAMES.contains(upper) || PREFIXES.stream().anyMatch(upper::startsWith)
                || WORDS.stream().anyMatch(upper::contains);
    }
}

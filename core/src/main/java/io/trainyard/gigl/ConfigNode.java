package io.trainyard.gigl;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.trainyard.validation.Violations;

/**
 * A position in a parsed YAML document that knows its dotted path. Typed reads never throw: a value of
 * the wrong type is recorded in {@link Violations} and read as absent, so one pass reports every problem.
 *
 * <p>Keys are looked up in camelCase and in snake_case, as GiGL accepts both; which keys may appear at all,
 * and that none is given in both spellings, {@link KnownFields} checks.
 */
final class ConfigNode {

    /**
     * The snake_case spelling of each field name the readers ask for, made once: every submission asks for the same
     * few dozen (names in the readers' code, never a document's keys, so this stays that small).
     */
    private static final Map<String, String> SNAKE_CASE = new ConcurrentHashMap<>();

    private final String path;
    private final Object value;
    private final Violations violations;

    private ConfigNode(String path, Object value, Violations violations) {
        this.path = path;
        this.value = value;
        this.violations = violations;
    }

    static ConfigNode root(String path, Map<String, Object> document, Violations violations) {
        return new ConfigNode(path, document, violations);
    }

    String path() {
        return path;
    }

    boolean isPresent() {
        return value != null;
    }

    /** The child under {@code camelName} or its snake_case spelling; absent if neither is there. */
    ConfigNode child(String camelName) {
        Map<String, Object> map = mapOrNull();
        String childPath = path + "." + camelName;
        if (map == null) {
            return new ConfigNode(childPath, null, violations);
        }
        Object child = map.containsKey(camelName) ? map.get(camelName)
                : map.get(SNAKE_CASE.computeIfAbsent(camelName, ConfigNode::toSnakeCase));
        return new ConfigNode(childPath, child, violations);
    }

    /** The parsed value here, for {@link KnownFields}. */
    Object value() {
        return value;
    }

    /** A scalar as text (YAML numbers and booleans are accepted and written as GiGL would print them). */
    String string() {
        if (value == null) {
            return null;
        }
        if (value instanceof Map || value instanceof List) {
            violations.add(path, "must be a single value, not a " + (value instanceof Map ? "mapping" : "list"));
            return null;
        }
        if (value instanceof Boolean b) {
            return b ? "True" : "False";
        }
        return value.toString();
    }

    String requiredString(String why) {
        String text = string();
        if (value == null || (text != null && text.isBlank())) {
            violations.add(path, "is required" + why);
            return null;
        }
        return text;
    }

    Long integer(long min) {
        if (value == null) {
            return null;
        }
        long number;
        if (value instanceof Integer || value instanceof Long) {
            number = ((Number) value).longValue();
        } else if (value instanceof String s && s.strip().matches("-?\\d+")) {
            number = Long.parseLong(s.strip());
        } else {
            violations.add(path, "must be an integer, got " + describe(value));
            return null;
        }
        if (number < min) {
            violations.add(path, "must be at least " + min + ", got " + number);
            return null;
        }
        return number;
    }

    boolean bool(boolean fallback) {
        if (value == null) {
            return fallback;
        }
        if (value instanceof Boolean b) {
            return b;
        }
        if (value instanceof String s) {
            Boolean parsed = PythonBool.parse(s);
            if (parsed != null) {
                return parsed;
            }
        }
        violations.add(path, "must be a boolean, got " + describe(value));
        return fallback;
    }

    /** A list of scalars, each written as text (GiGL's {@code repeated string} fields); empty when absent. */
    List<String> stringList() {
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof List<?> items)) {
            violations.add(path, "must be a list, got " + describe(value));
            return List.of();
        }
        List<String> result = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            String text = new ConfigNode(path + "[" + i + "]", items.get(i), violations).string();
            if (text != null) {
                result.add(text);
            }
        }
        return result;
    }

    /** A mapping of scalars, each written as text (GiGL's {@code map<string, string>} fields). */
    Map<String, String> stringMap() {
        Map<String, Object> map = mapOrNull();
        Map<String, String> result = new LinkedHashMap<>();
        if (map == null) {
            return result;
        }
        // Keys are written as text: YAML reads an unquoted 1 as a number.
        for (Map.Entry<?, Object> entry : ((Map<?, Object>) map).entrySet()) {
            String key = String.valueOf(entry.getKey());
            String text = new ConfigNode(path + "." + key, entry.getValue(), violations).string();
            if (text != null) {
                result.put(key, text);
            }
        }
        return result;
    }

    void reject(String message) {
        violations.add(path, message);
    }

    /** The mapping here, or null (recording a violation when something other than a mapping is here). */
    private Map<String, Object> mapOrNull() {
        if (value == null) {
            return null;
        }
        if (value instanceof Map<?, ?> map) {
            @SuppressWarnings("unchecked")
            Map<String, Object> typed = (Map<String, Object>) map;
            return typed;
        }
        violations.add(path, "must be a mapping, got " + describe(value));
        return null;
    }

    static String toSnakeCase(String camelName) {
        StringBuilder snake = new StringBuilder(camelName.length() + 4);
        for (char c : camelName.toCharArray()) {
            if (Character.isUpperCase(c)) {
                snake.append('_').append(Character.toLowerCase(c));
            } else {
                snake.append(c);
            }
        }
        return snake.toString();
    }

    static String describe(Object value) {
        if (value instanceof Map) {
            return "a mapping";
        }
        if (value instanceof List) {
            return "a list";
        }
        return "'" + value + "'";
    }
}

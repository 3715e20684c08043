package io.trainyard.gigl;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.trainyard.validation.Violations;

/**
 * Checks a parsed YAML document against a {@link ProtoMessage} the way protobuf's JSON parser does when GiGL
 * reads it: every key must name a field (by proto or JSON name), a field may not be given twice, at most one
 * field of a oneof may be set, and messages, lists and maps must have their shape. Every problem is recorded
 * with its path; a null value counts as absent, as the parser clears such fields.
 */
final class KnownFields {

    private KnownFields() {
    }

    static void check(Object value, ProtoMessage message, String path, Violations violations) {
        if (!(value instanceof Map<?, ?> map)) {
            violations.add(path, "must be a mapping, got " + ConfigNode.describe(value));
            return;
        }
        List<ProtoMessage.Field> present = new ArrayList<>();
        List<String> presentKeys = new ArrayList<>();
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            String key = String.valueOf(entry.getKey());
            ProtoMessage.Field field = message.fieldFor(key);
            if (field == null) {
                violations.add(path + "." + key, "is not a field of " + message.name()
                        + " (GiGL's protobuf parser refuses unknown fields); its fields are " + message.jsonNames());
                continue;
            }
            int earlier = present.indexOf(field);
            if (earlier >= 0) {
                violations.add(path + "." + field.jsonName(), "is given twice, as " + presentKeys.get(earlier) + " and as " + key);
                continue;
            }
            present.add(field);
            presentKeys.add(key);
            if (entry.getValue() != null) {
                checkValue(entry.getValue(), field, path + "." + field.jsonName(), violations);
            }
        }
        for (List<String> oneof : message.oneofs()) {
            List<String> set = new ArrayList<>();
            for (int i = 0; i < present.size(); i++) {
                if (oneof.contains(present.get(i).protoName()) && map.get(presentKeys.get(i)) != null) {
                    set.add(presentKeys.get(i));
                }
            }
            if (set.size() > 1) {
                violations.add(path, "sets " + String.join(" and ", set) + ", which are one of a oneof in GiGL's "
                        + message.name() + ": give only one");
            }
        }
    }

    private static void checkValue(Object value, ProtoMessage.Field field, String path, Violations violations) {
        switch (field.shape()) {
            case SCALAR -> checkScalar(value, path, violations);
            case MESSAGE -> check(value, field.message(), path, violations);
            case SCALAR_LIST, MESSAGE_LIST -> {
                if (!(value instanceof List<?> items)) {
                    violations.add(path, "must be a list, got " + ConfigNode.describe(value));
                    return;
                }
                for (int i = 0; i < items.size(); i++) {
                    String itemPath = path + "[" + i + "]";
                    if (field.shape() == ProtoMessage.Shape.MESSAGE_LIST) {
                        check(items.get(i), field.message(), itemPath, violations);
                    } else {
                        checkScalar(items.get(i), itemPath, violations);
                    }
                }
            }
            case SCALAR_MAP, MESSAGE_MAP -> {
                if (!(value instanceof Map<?, ?> entries)) {
                    violations.add(path, "must be a mapping, got " + ConfigNode.describe(value));
                    return;
                }
                entries.forEach((key, entry) -> {
                    String entryPath = path + "." + key;
                    if (field.shape() == ProtoMessage.Shape.MESSAGE_MAP) {
                        check(entry, field.message(), entryPath, violations);
                    } else {
                        checkScalar(entry, entryPath, violations);
                    }
                });
            }
        }
    }

    private static void checkScalar(Object value, String path, Violations violations) {
        if (value instanceof Map || value instanceof List) {
            violations.add(path, "must be a single value, not " + ConfigNode.describe(value));
        }
    }
}

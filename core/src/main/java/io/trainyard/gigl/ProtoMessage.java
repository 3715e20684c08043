package io.trainyard.gigl;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One protobuf message of GiGL's configs as far as YAML sees it: its fields by their proto names, what shape
 * each holds, and its oneofs. GiGL parses its YAML with protobuf's JSON parser, which takes a field by its
 * proto name ({@code trainer_args}) or its JSON name ({@code trainerArgs}), refuses any other key, and refuses
 * two fields of one oneof; {@link KnownFields} checks a document against these descriptions the same way.
 */
final class ProtoMessage {

    /** What a field holds; map fields take any keys, as protobuf's maps do. */
    enum Shape { SCALAR, SCALAR_LIST, SCALAR_MAP, MESSAGE, MESSAGE_LIST, MESSAGE_MAP }

    /** A field: {@code message} is set for the message shapes. */
    record Field(String protoName, String jsonName, Shape shape, ProtoMessage message) {
    }

    private final String name;
    private final Map<String, Field> fields = new LinkedHashMap<>();
    private final List<List<String>> oneofs = new ArrayList<>();

    private ProtoMessage(String name) {
        this.name = name;
    }

    static ProtoMessage named(String name) {
        return new ProtoMessage(name);
    }

    ProtoMessage scalars(String... protoNames) {
        for (String protoName : protoNames) {
            add(protoName, Shape.SCALAR, null);
        }
        return this;
    }

    ProtoMessage scalarLists(String... protoNames) {
        for (String protoName : protoNames) {
            add(protoName, Shape.SCALAR_LIST, null);
        }
        return this;
    }

    ProtoMessage maps(String... protoNames) {
        for (String protoName : protoNames) {
            add(protoName, Shape.SCALAR_MAP, null);
        }
        return this;
    }

    ProtoMessage message(String protoName, ProtoMessage message) {
        return add(protoName, Shape.MESSAGE, message);
    }

    ProtoMessage messageList(String protoName, ProtoMessage message) {
        return add(protoName, Shape.MESSAGE_LIST, message);
    }

    ProtoMessage messageMap(String protoName, ProtoMessage message) {
        return add(protoName, Shape.MESSAGE_MAP, message);
    }

    /** The named fields, declared before, form a oneof: at most one of them may be set. */
    ProtoMessage oneof(String... protoNames) {
        for (String protoName : protoNames) {
            if (!fields.containsKey(protoName)) {
                throw new IllegalArgumentException(name + " has no field " + protoName + " to put in a oneof");
            }
        }
        oneofs.add(List.of(protoNames));
        return this;
    }

    String name() {
        return name;
    }

    /** The field a YAML key names, by proto name or JSON name; null for a key protobuf would refuse. */
    Field fieldFor(String key) {
        Field byProtoName = fields.get(key);
        if (byProtoName != null) {
            return byProtoName;
        }
        for (Field field : fields.values()) {
            if (field.jsonName().equals(key)) {
                return field;
            }
        }
        return null;
    }

    List<String> jsonNames() {
        return fields.values().stream().map(Field::jsonName).toList();
    }

    List<List<String>> oneofs() {
        return oneofs;
    }

    private ProtoMessage add(String protoName, Shape shape, ProtoMessage message) {
        fields.put(protoName, new Field(protoName, jsonName(protoName), shape, message));
        return this;
    }

    /** protoc's JSON name: underscores dropped, the letter after each upper-cased. */
    static String jsonName(String protoName) {
        StringBuilder json = new StringBuilder(protoName.length());
        boolean upper = false;
        for (char c : protoName.toCharArray()) {
            if (c == '_') {
                upper = true;
            } else {
                json.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return json.toString();
    }
}

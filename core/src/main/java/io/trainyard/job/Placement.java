package io.trainyard.job;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.swagger.v3.oas.annotations.media.Schema;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Where a job's current attempt runs, as its backend placed it: stored on the job and shown to users. A JSON
 * object tagged by {@code kind}, the rest of it the backend's own placement type
 * ({@link io.trainyard.backend.BackendDescription#placementType()}). The core keeps and serves it as it is, without
 * knowing any backend's shape; the backend reads it back as its type with {@link #as}. The API document describes
 * it as the tagged union of the server's backends' placement types.
 */
@Schema(name = "Placement")
public final class Placement {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String KIND = "kind";

    private final Map<String, Object> fields;

    private Placement(Map<String, Object> fields) {
        this.fields = Collections.unmodifiableMap(fields);
    }

    /** A backend's placement value, tagged {@code kind}. */
    public static Placement of(String kind, Object placement) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put(KIND, kind);
        fields.putAll(JSON.convertValue(placement, new TypeReference<Map<String, Object>>() { }));
        return new Placement(fields);
    }

    @JsonCreator
    static Placement fromJson(Map<String, Object> fields) {
        if (!(fields.get(KIND) instanceof String)) {
            throw new IllegalArgumentException("a placement is tagged by its kind: " + fields);
        }
        return new Placement(new LinkedHashMap<>(fields));
    }

    public String kind() {
        return (String) fields.get(KIND);
    }

    /** The placement as the backend's own type (the fields other than {@code kind}). */
    public <T> T as(Class<T> type) {
        Map<String, Object> own = new LinkedHashMap<>(fields);
        own.remove(KIND);
        return JSON.convertValue(own, type);
    }

    @JsonValue
    Map<String, Object> fields() {
        return fields;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Placement placement && placement.fields.equals(fields);
    }

    @Override
    public int hashCode() {
        return fields.hashCode();
    }

    @Override
    public String toString() {
        return fields.toString();
    }
}

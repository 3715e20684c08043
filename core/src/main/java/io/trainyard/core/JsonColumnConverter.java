package io.trainyard.core;

import jakarta.persistence.AttributeConverter;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stores a typed attribute as JSON in a {@code jsonb} column. A subclass names the type and the value that
 * stands for SQL NULL: an empty list or map, so entities never see null collections, or null for a value
 * that may be absent (a job's placement before it is placed).
 */
public abstract class JsonColumnConverter<T> implements AttributeConverter<T, String> {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final JavaType type;
    private final T empty;

    protected JsonColumnConverter(TypeReference<? extends T> type, T empty) {
        this.type = JSON.getTypeFactory().constructType(type);
        this.empty = empty;
    }

    @Override
    public String convertToDatabaseColumn(T value) {
        T stored = value == null ? empty : value;
        return stored == null ? null : JSON.writeValueAsString(stored);
    }

    @Override
    public T convertToEntityAttribute(String json) {
        return json == null ? empty : JSON.readValue(json, type);
    }
}

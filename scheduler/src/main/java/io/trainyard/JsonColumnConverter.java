package io.trainyard;

import jakarta.persistence.AttributeConverter;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stores an attribute as JSON in a {@code jsonb} column; a subclass names the type and the value that
 * stands for null (an empty list or map), so entities never see null collections.
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
        return JSON.writeValueAsString(value == null ? empty : value);
    }

    @Override
    public T convertToEntityAttribute(String json) {
        return json == null ? empty : JSON.readValue(json, type);
    }
}

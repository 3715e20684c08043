package io.trainyard.job;

import java.util.Map;
import java.util.TreeMap;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** Stores a string map (a job's labels, its output URIs) as a JSON object in a {@code jsonb} column. */
@Converter
class StringMapConverter implements AttributeConverter<Map<String, String>, String> {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Override
    public String convertToDatabaseColumn(Map<String, String> map) {
        return JSON.writeValueAsString(map == null ? Map.of() : new TreeMap<>(map));
    }

    @Override
    public Map<String, String> convertToEntityAttribute(String json) {
        return json == null ? Map.of() : JSON.readValue(json, new TypeReference<TreeMap<String, String>>() { });
    }
}

package io.trainyard.job;

import java.util.Map;
import java.util.TreeMap;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** Stores a job's labels as a JSON object (a {@code jsonb} column, so label filters can use its index). */
@Converter
class LabelsConverter implements AttributeConverter<Map<String, String>, String> {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Override
    public String convertToDatabaseColumn(Map<String, String> labels) {
        return JSON.writeValueAsString(labels == null ? Map.of() : new TreeMap<>(labels));
    }

    @Override
    public Map<String, String> convertToEntityAttribute(String json) {
        return json == null ? Map.of() : JSON.readValue(json, new TypeReference<TreeMap<String, String>>() { });
    }
}

package io.trainyard.agent;

import java.util.List;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** Stores an agent's GPUs as a JSON array. */
@Converter
class GpuListConverter implements AttributeConverter<List<Gpu>, String> {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Override
    public String convertToDatabaseColumn(List<Gpu> gpus) {
        return JSON.writeValueAsString(gpus == null ? List.of() : gpus);
    }

    @Override
    public List<Gpu> convertToEntityAttribute(String json) {
        return json == null ? List.of() : JSON.readValue(json, new TypeReference<List<Gpu>>() { });
    }
}

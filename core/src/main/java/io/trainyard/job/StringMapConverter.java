package io.trainyard.job;

import java.util.Map;
import java.util.TreeMap;

import io.trainyard.core.JsonColumnConverter;
import jakarta.persistence.Converter;
import tools.jackson.core.type.TypeReference;

/** Stores a string map (a job's labels, its output URIs) as a JSON object; read back sorted by key. */
@Converter
class StringMapConverter extends JsonColumnConverter<Map<String, String>> {

    StringMapConverter() {
        super(new TypeReference<TreeMap<String, String>>() { }, Map.of());
    }
}

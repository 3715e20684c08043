package io.trainyard.backend.local.agents;

import java.util.List;

import io.trainyard.core.JsonColumnConverter;
import io.trainyard.protocol.Gpu;
import jakarta.persistence.Converter;
import tools.jackson.core.type.TypeReference;

/** Stores an agent's GPUs as a JSON array. */
@Converter
class GpuListConverter extends JsonColumnConverter<List<Gpu>> {

    GpuListConverter() {
        super(new TypeReference<List<Gpu>>() { }, List.of());
    }
}

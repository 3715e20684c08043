package io.trainyard.backend.local.agents;

import java.util.List;

import io.trainyard.core.JsonColumnConverter;
import io.trainyard.protocol.GpuSample;
import jakarta.persistence.Converter;
import tools.jackson.core.type.TypeReference;

/** Reads an agent's last GPU samples, a JSON array. */
@Converter
class GpuSampleListConverter extends JsonColumnConverter<List<GpuSample>> {

    GpuSampleListConverter() {
        super(new TypeReference<List<GpuSample>>() { }, List.of());
    }
}

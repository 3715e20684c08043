package io.trainyard.job;

import io.trainyard.core.JsonColumnConverter;
import jakarta.persistence.Converter;
import tools.jackson.core.type.TypeReference;

/** Stores a job's placement as JSON; SQL NULL until it is placed. */
@Converter
class PlacementConverter extends JsonColumnConverter<Placement> {

    PlacementConverter() {
        super(new TypeReference<Placement>() { }, null);
    }
}

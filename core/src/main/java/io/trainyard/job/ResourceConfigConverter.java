package io.trainyard.job;

import io.trainyard.core.JsonColumnConverter;
import io.trainyard.gigl.ResourceConfig;
import jakarta.persistence.Converter;
import tools.jackson.core.type.TypeReference;

/** Stores the server's reading of a job's resource config, made once at submission, as JSON. */
@Converter
class ResourceConfigConverter extends JsonColumnConverter<ResourceConfig> {

    ResourceConfigConverter() {
        super(new TypeReference<ResourceConfig>() { }, null);
    }
}

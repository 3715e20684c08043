package io.trainyard.job;

import io.trainyard.core.JsonColumnConverter;
import io.trainyard.gigl.TaskConfig;
import jakarta.persistence.Converter;
import tools.jackson.core.type.TypeReference;

/** Stores the server's reading of a job's task config, made once at submission, as JSON. */
@Converter
class TaskConfigConverter extends JsonColumnConverter<TaskConfig> {

    TaskConfigConverter() {
        super(new TypeReference<TaskConfig>() { }, null);
    }
}

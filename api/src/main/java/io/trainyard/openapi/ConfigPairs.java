package io.trainyard.openapi;

import java.util.ArrayList;
import java.util.List;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Schema;
import org.springdoc.core.customizers.OpenApiCustomizer;

/**
 * A submission names each config once, inline or by URI: {@code taskConfig} or {@code taskConfigUri}, and
 * {@code resourceConfig} or {@code resourceConfigUri}. The document says so with one {@code oneOf} of the four ways
 * to pick one of each, every field picked given as text with more than blanks in it (the server takes a blank one,
 * or null, as not given): both of a pair match two ways, neither matches none, and the server refuses both with 422.
 * One {@code oneOf} beside the properties, not an {@code allOf} of one per pair, because that is the shape
 * openapi-generator's {@code REMOVE_ANYOF_ONEOF_AND_KEEP_PROPERTIES_ONLY} leaves as a plain model for the clients.
 */
class ConfigPairs implements OpenApiCustomizer {

    private static final String SUBMISSION = "JobSubmission";
    private static final List<String> TASK = List.of("taskConfig", "taskConfigUri");
    private static final List<String> RESOURCE = List.of("resourceConfig", "resourceConfigUri");

    @Override
    @SuppressWarnings("rawtypes")
    public void customise(OpenAPI openApi) {
        if (openApi.getComponents() == null || openApi.getComponents().getSchemas() == null) {
            return;
        }
        Schema submission = openApi.getComponents().getSchemas().get(SUBMISSION);
        if (submission == null) {
            return;
        }
        List<Schema> ways = new ArrayList<>();
        for (String task : TASK) {
            for (String resource : RESOURCE) {
                ways.add(given(task, resource));
            }
        }
        submission.setOneOf(ways);
    }

    /** These fields are there, as text with something besides blanks in it. */
    @SuppressWarnings("rawtypes")
    private static Schema given(String... fields) {
        Schema given = new Schema<>();
        for (String field : fields) {
            Schema text = new Schema<>();
            text.addType("string");
            text.setPattern("\\S");
            given.addProperty(field, text);
        }
        given.setRequired(List.of(fields));
        return given;
    }
}

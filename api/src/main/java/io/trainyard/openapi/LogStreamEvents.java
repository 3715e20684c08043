package io.trainyard.openapi;

import java.util.List;

import io.swagger.v3.core.converter.ModelConverters;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.trainyard.api.logs.LogEndView;
import io.trainyard.logs.LogLine;
import org.springdoc.core.customizers.OpenApiCustomizer;

/**
 * The log stream's events in the public document. Each event of {@code followJobLogs} is described as OpenAPI 3.2
 * describes Server-Sent Events (and schemathesis checks them): an object of the event's fields, {@code event},
 * {@code id} and {@code data}, whose {@code data} is JSON of a {@code LogLine} ({@code log}), a {@code LogEnd}
 * ({@code end}) or a {@code Problem} ({@code error}). The payloads are schemas of the document, so generated clients
 * have types to parse them into.
 */
class LogStreamEvents implements OpenApiCustomizer {

    static final String OPERATION = "followJobLogs";
    private static final String EVENT_STREAM = "text/event-stream";

    @Override
    public void customise(OpenAPI openApi) {
        ModelConverters converters = ModelConverters.getInstance(true);
        converters.readAll(LogLine.class).forEach(openApi.getComponents()::addSchemas);
        converters.readAll(LogEndView.class).forEach(openApi.getComponents()::addSchemas);
        openApi.getPaths().values().stream()
                .flatMap(path -> path.readOperations().stream())
                .filter(operation -> OPERATION.equals(operation.getOperationId()))
                .forEach(LogStreamEvents::describeEvents);
    }

    private static void describeEvents(Operation operation) {
        ApiResponse ok = operation.getResponses().get("200");
        MediaType stream = ok == null || ok.getContent() == null ? null : ok.getContent().get(EVENT_STREAM);
        if (stream != null) {
            stream.setSchema(new Schema<>().oneOf(List.of(
                    event("log", "LogLine", true, "One log line; `id` is its sequence number"),
                    event("end", "LogEnd", false, "The last event: how the job ended"),
                    event("error", "Problem", false, "The last event instead of `end` when the caller may no longer "
                            + "read the job: its token revoked or expired (401), its membership removed (404)"))));
        }
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static Schema event(String name, String payload, boolean hasId, String description) {
        Schema data = string();
        data.setContentMediaType("application/json");
        data.setContentSchema(new Schema<>().$ref("#/components/schemas/" + payload));
        Schema eventName = string();
        eventName.setConst(name);
        Schema event = new Schema<>();
        event.addType("object");
        event.setDescription(description);
        event.addProperty("event", eventName);
        event.addProperty("data", data);
        if (hasId) {
            event.addProperty("id", string());
        }
        event.setRequired(hasId ? List.of("event", "id", "data") : List.of("event", "data"));
        return event;
    }

    private static Schema<?> string() {
        Schema<?> schema = new Schema<>();
        schema.addType("string");
        return schema;
    }
}

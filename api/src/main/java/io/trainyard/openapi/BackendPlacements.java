package io.trainyard.openapi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.swagger.v3.core.converter.AnnotatedType;
import io.swagger.v3.core.converter.ModelConverters;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Discriminator;
import io.swagger.v3.oas.models.media.Schema;
import io.trainyard.backend.BackendDescription;
import org.springdoc.core.customizers.OpenApiCustomizer;

/**
 * A job's placement in the public document: the union of the server's backends' placement types, tagged by
 * {@code kind} (an OpenAPI discriminator, so generated clients pick the shape by the tag). The core stores
 * placements without knowing their shapes; each backend declares its own ({@link BackendDescription}), and this
 * puts them together: {@code Placement} with the tag and its mapping, each backend's type as {@code allOf} it and
 * its own fields, and the job's {@code placement} as one of them or null.
 */
class BackendPlacements implements OpenApiCustomizer {

    private static final String PLACEMENT = "Placement";
    private static final String REF_PREFIX = "#/components/schemas/";
    private static final String KIND = "kind";

    private final List<BackendDescription> modules;

    /** @param modules every backend module of the server, on or off: jobs keep the placements of one turned off */
    BackendPlacements(List<BackendDescription> modules) {
        this.modules = modules;
    }

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public void customise(OpenAPI openApi) {
        if (openApi.getComponents() == null || openApi.getComponents().getSchemas() == null
                || !openApi.getComponents().getSchemas().containsKey("Job")) {
            return;
        }
        ModelConverters converters = ModelConverters.getInstance(true);
        Map<String, String> mapping = new LinkedHashMap<>();
        List<Schema> choices = new ArrayList<>();
        for (BackendDescription description : modules) {
            String name = schemaName(description.placementType());
            Map<String, Schema> schemas = new LinkedHashMap<>(converters.readAll(new AnnotatedType(description.placementType())));
            Schema own = schemas.remove(name);
            schemas.forEach(openApi.getComponents()::addSchemas);
            Schema tagged = new Schema<>().allOf(List.of(new Schema<>().$ref(REF_PREFIX + PLACEMENT), withoutName(own)));
            tagged.setRequired(own.getRequired());
            own.setRequired(null);
            tagged.setDescription(own.getDescription());
            own.setDescription(null);
            openApi.getComponents().addSchemas(name, tagged);
            mapping.put(description.placementKind(), REF_PREFIX + name);
            choices.add(new Schema<>().$ref(REF_PREFIX + name));
        }
        Schema kind = new Schema<>();
        kind.addType("string");
        Schema placement = new Schema<>();
        placement.setDiscriminator(new Discriminator().propertyName(KIND).mapping(mapping));
        placement.addProperty(KIND, kind);
        placement.setRequired(List.of(KIND));
        openApi.getComponents().addSchemas(PLACEMENT, placement);

        Schema nothing = new Schema<>();
        nothing.addType("null");
        choices.add(nothing);
        Schema job = openApi.getComponents().getSchemas().get("Job");
        Schema jobPlacement = new Schema<>().oneOf(choices);
        job.getProperties().put("placement", jobPlacement);
    }

    /** The schema name a type is documented under: its {@code @Schema(name)}, else its simple name. */
    private static String schemaName(Class<?> type) {
        io.swagger.v3.oas.annotations.media.Schema annotation = type.getAnnotation(io.swagger.v3.oas.annotations.media.Schema.class);
        return annotation != null && !annotation.name().isBlank() ? annotation.name() : type.getSimpleName();
    }

    /** The backend's own fields, as the second part of its allOf. */
    @SuppressWarnings("rawtypes")
    private static Schema withoutName(Schema own) {
        own.setName(null);
        return own;
    }
}

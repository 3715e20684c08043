package io.trainyard.openapi;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.swagger.v3.core.converter.AnnotatedType;
import io.swagger.v3.core.converter.ModelConverter;
import io.swagger.v3.core.converter.ModelConverterContext;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.oas.models.media.Schema;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * Required and nullable properties as the API's records declare them with JSpecify: in a {@link NullMarked}
 * record (or package), a component is required and never null unless it is {@link Nullable}, in which case
 * it may be absent or null. Without this every property of the document would be optional and non-null,
 * which is what made generated clients choke on a {@code null} cursor.
 */
class RecordNullability implements ModelConverter {

    private static final String REF_PREFIX = "#/components/schemas/";

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public Schema resolve(AnnotatedType type, ModelConverterContext context, Iterator<ModelConverter> chain) {
        Schema schema = chain.hasNext() ? chain.next().resolve(type, context, chain) : null;
        Class<?> raw = rawClass(type);
        if (schema == null || raw == null || !raw.isRecord() || !nullMarked(raw)) {
            return schema;
        }
        Schema model = schema.get$ref() == null ? schema
                : context.getDefinedModels().get(schema.get$ref().substring(REF_PREFIX.length()));
        if (model == null || model.getProperties() == null) {
            return schema;
        }
        List<String> required = new ArrayList<>();
        for (RecordComponent component : raw.getRecordComponents()) {
            Schema property = (Schema) model.getProperties().get(component.getName());
            if (property == null) {
                continue;
            }
            if (component.getAnnotatedType().isAnnotationPresent(Nullable.class)) {
                model.getProperties().put(component.getName(), allowingNull(property));
            } else {
                required.add(component.getName());
            }
        }
        model.setRequired(required.isEmpty() ? null : required);
        return schema;
    }

    /**
     * The property's schema with null as one more allowed value (OpenAPI 3.1): a type list, one more choice of a
     * oneOf (a sealed type's subtypes), or anyOf of a $ref and null.
     */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static Schema allowingNull(Schema property) {
        if (property.getOneOf() != null) {
            List<Schema> choices = new ArrayList<>(property.getOneOf());
            choices.add(nullSchema());
            property.setOneOf(choices);
            return property;
        }
        if (property.get$ref() != null) {
            Schema nullable = new Schema<>().anyOf(List.of(new Schema<>().$ref(property.get$ref()), nullSchema()));
            nullable.setDescription(property.getDescription());
            return nullable;
        }
        Set<String> types = property.getTypes() == null ? new LinkedHashSet<>() : new LinkedHashSet<>(property.getTypes());
        if (types.isEmpty() && property.getType() != null) {
            types.add(property.getType());
        }
        if (types.isEmpty()) {
            return property;
        }
        types.add("null");
        property.setTypes(types);
        if (property.getEnum() != null && !property.getEnum().contains(null)) {
            property.getEnum().add(null);
        }
        return property;
    }

    private static Schema<?> nullSchema() {
        Schema<?> schema = new Schema<>();
        schema.addType("null");
        return schema;
    }

    private static boolean nullMarked(Class<?> type) {
        for (Class<?> at = type; at != null; at = at.getEnclosingClass()) {
            if (at.isAnnotationPresent(NullMarked.class)) {
                return true;
            }
        }
        return type.getPackage() != null && type.getPackage().isAnnotationPresent(NullMarked.class);
    }

    private static Class<?> rawClass(AnnotatedType type) {
        try {
            return Json.mapper().constructType(type.getType()).getRawClass();
        } catch (RuntimeException notAJavaType) {
            return null;
        }
    }
}

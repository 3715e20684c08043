package io.trainyard.server;

import java.math.BigDecimal;
import java.util.List;
import java.util.function.Function;

import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.deser.std.StdDeserializer;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.type.LogicalType;

/**
 * Request bodies are read as their schema says: a string field takes a JSON string, a boolean field true or false,
 * a number field a number, an enum field one of its names. Jackson would otherwise coerce ({@code false} into
 * "false", {@code 0} into false, {@code ""} into null, {@code 0} into an enum's first constant), accepting
 * bodies the OpenAPI document calls invalid. An integer field takes a whole number, also written as one with a zero
 * fraction (JSON Schema's integer: 30.0 is 30), never a fraction, which Jackson would truncate (boxed types: the
 * request records' optional numbers).
 */
@Configuration(proxyBeanMethods = false)
class StrictJson {

    private static final List<CoercionInputShape> NON_TEXT = List.of(CoercionInputShape.Integer, CoercionInputShape.Float,
            CoercionInputShape.Boolean);
    private static final List<CoercionInputShape> TEXT = List.of(CoercionInputShape.String, CoercionInputShape.EmptyString);

    @Bean
    JsonMapperBuilderCustomizer strictScalars() {
        return builder -> {
            failOn(builder, LogicalType.Textual, NON_TEXT);
            failOn(builder, LogicalType.Boolean, List.of(CoercionInputShape.Integer, CoercionInputShape.Float,
                    CoercionInputShape.String, CoercionInputShape.EmptyString));
            failOn(builder, LogicalType.Integer, List.of(CoercionInputShape.Boolean, CoercionInputShape.String,
                    CoercionInputShape.EmptyString));
            failOn(builder, LogicalType.Float, List.of(CoercionInputShape.Boolean, CoercionInputShape.String,
                    CoercionInputShape.EmptyString));
            failOn(builder, LogicalType.Enum, List.of(CoercionInputShape.Integer, CoercionInputShape.Float,
                    CoercionInputShape.Boolean, CoercionInputShape.EmptyString));
            for (LogicalType structured : List.of(LogicalType.POJO, LogicalType.Map, LogicalType.Collection)) {
                failOn(builder, structured, TEXT);
            }
            SimpleModule wholeNumbers = new SimpleModule("whole-numbers");
            wholeNumbers.addDeserializer(Integer.class, new WholeNumber<>(Integer.class, Integer.MIN_VALUE, Integer.MAX_VALUE, Long::intValue));
            wholeNumbers.addDeserializer(Long.class, new WholeNumber<>(Long.class, Long.MIN_VALUE, Long.MAX_VALUE, Long::longValue));
            builder.addModule(wholeNumbers);
        };
    }

    /** An integer of a range from a JSON integer or a number with a zero fraction; anything else is a mismatch. */
    private static final class WholeNumber<T> extends StdDeserializer<T> {

        private final long min;
        private final long max;
        private final Function<Long, T> box;

        WholeNumber(Class<T> type, long min, long max, Function<Long, T> box) {
            super(type);
            this.min = min;
            this.max = max;
            this.box = box;
        }

        @Override
        @SuppressWarnings("unchecked")
        public T deserialize(JsonParser parser, DeserializationContext context) {
            BigDecimal value = switch (parser.currentToken()) {
                case VALUE_NUMBER_INT -> new BigDecimal(parser.getBigIntegerValue());
                case VALUE_NUMBER_FLOAT -> parser.getDecimalValue();
                default -> null;
            };
            if (value == null) {
                return (T) context.handleUnexpectedToken(handledType(), parser);
            }
            BigDecimal whole = value.stripTrailingZeros();
            if (whole.scale() > 0 || whole.compareTo(BigDecimal.valueOf(min)) < 0 || whole.compareTo(BigDecimal.valueOf(max)) > 0) {
                return (T) context.handleWeirdNumberValue(handledType(), value, "must be a whole number from %d to %d", min, max);
            }
            return box.apply(whole.longValueExact());
        }
    }

    private static void failOn(JsonMapper.Builder builder, LogicalType type,
            List<CoercionInputShape> shapes) {
        builder.withCoercionConfig(type, config -> shapes.forEach(shape -> config.setCoercion(shape, CoercionAction.Fail)));
    }
}

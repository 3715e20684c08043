package io.trainyard.backend.local.web;

import io.trainyard.protocol.LogStream;
import io.trainyard.protocol.OutputLine;
import org.springframework.boot.jackson.JacksonComponent;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;

/**
 * Reads the lines of a shipped log batch field by field. Jackson 3.1 binds a record through its constructor with
 * {@code MethodHandle.invokeWithArguments}, which builds a spreading handle on every call: for a batch of 8,000 lines
 * that, and the bean binding around it, was a fifth of the server's CPU while a job printed a burst (JFR). The
 * wire form is unchanged (the record's fields as a JSON object, as the agent writes it), so agents of either
 * version ship to this server. Unknown fields are skipped as Jackson would; a line without its stream or text is
 * refused.
 */
@JacksonComponent
class OutputLineReader extends ValueDeserializer<OutputLine> {

    @Override
    public OutputLine deserialize(JsonParser parser, DeserializationContext context) {
        if (!parser.isExpectedStartObjectToken()) {
            return (OutputLine) context.handleUnexpectedToken(OutputLine.class, parser);
        }
        long timeMicros = 0;
        int rank = 0;
        LogStream stream = null;
        String text = null;
        for (String name = parser.nextName(); name != null; name = parser.nextName()) {
            JsonToken value = parser.nextToken();
            switch (name) {
                case "timeMicros" -> timeMicros = number(parser, context, value).getLongValue();
                case "rank" -> rank = number(parser, context, value).getIntValue();
                case "stream" -> stream = stream(parser, context, value);
                case "text" -> text = value == JsonToken.VALUE_STRING ? parser.getString()
                        : (String) context.handleUnexpectedToken(String.class, parser);
                default -> parser.skipChildren();
            }
        }
        if (stream == null || text == null) {
            return context.reportInputMismatch(OutputLine.class, "a log line needs its stream and text");
        }
        return new OutputLine(timeMicros, stream, rank, text);
    }

    /** The stream a wire name names ({@link LogStream#wireName()}); a mismatch for any other value. */
    private static LogStream stream(JsonParser parser, DeserializationContext context, JsonToken value) {
        if (value == JsonToken.VALUE_STRING) {
            String name = parser.getString();
            for (LogStream stream : LogStream.values()) {
                if (stream.wireName().equals(name)) {
                    return stream;
                }
            }
            return (LogStream) context.handleWeirdStringValue(LogStream.class, name, "not a stream: stdout or stderr");
        }
        return (LogStream) context.handleUnexpectedToken(LogStream.class, parser);
    }

    /** The parser, on a whole number; a mismatch otherwise (a fraction, a string). */
    private static JsonParser number(JsonParser parser, DeserializationContext context, JsonToken value) {
        if (value != JsonToken.VALUE_NUMBER_INT) {
            context.handleUnexpectedToken(Long.TYPE, parser);
        }
        return parser;
    }
}

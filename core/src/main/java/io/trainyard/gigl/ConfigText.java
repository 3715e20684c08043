package io.trainyard.gigl;

import java.util.Map;

import io.trainyard.validation.InvalidRequestException;

/**
 * A config as the trainer will read it, its YAML text, beside the server's parse of that text. A submission parses
 * each config once and hands this on (composing, reading, freezing): parsing YAML was the largest share of a
 * submission's CPU, done five times.
 *
 * @param field the request field the text came from, the root of every reported path
 * @param document the parsed text; readers leave it as it is
 */
public record ConfigText(String field, String yaml, Map<String, Object> document) {

    /** @throws InvalidRequestException when the text is not a safe, well-formed YAML mapping */
    public static ConfigText parse(String field, String yaml) {
        return new ConfigText(field, yaml, SafeYamlParser.parseMapping(field, yaml));
    }
}

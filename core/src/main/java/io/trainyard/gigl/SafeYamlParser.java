package io.trainyard.gigl;

import java.util.Map;

import io.trainyard.validation.InvalidRequestException;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Parses untrusted YAML the way GiGL reads it (YAML 1.1: {@code 5_000_000} is an integer, {@code yes} a
 * boolean) but safely: a size limit, a cap on aliases so an alias bomb cannot expand, a nesting limit, and
 * only standard tags (no arbitrary types are ever constructed).
 */
public final class SafeYamlParser {

    /** Largest YAML document accepted, in characters. */
    public static final int MAX_DOCUMENT_CHARS = 1024 * 1024;
    private static final int MAX_ALIASES = 50;
    private static final int MAX_NESTING = 64;

    private SafeYamlParser() {
    }

    /**
     * Parses {@code text} into a mapping.
     *
     * @param field the request field the document came from, used in error messages
     * @throws InvalidRequestException when the text is not a safe, well-formed YAML mapping
     */
    public static Map<String, Object> parseMapping(String field, String text) {
        if (text == null || text.isBlank()) {
            throw new InvalidRequestException(field, "is empty");
        }
        if (text.length() > MAX_DOCUMENT_CHARS) {
            throw new InvalidRequestException(field, "is " + text.length() + " characters; the limit is " + MAX_DOCUMENT_CHARS);
        }
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(MAX_ALIASES);
        options.setAllowRecursiveKeys(false);
        options.setAllowDuplicateKeys(false);
        options.setNestingDepthLimit(MAX_NESTING);
        options.setCodePointLimit(MAX_DOCUMENT_CHARS);
        Object document;
        try {
            // SafeConstructor builds only maps, lists and scalars, and carries the loader limits above.
            document = new Yaml(new SafeConstructor(options)).load(text);
        } catch (MarkedYAMLException e) {
            throw new InvalidRequestException(field, "is not valid YAML" + where(e.getProblemMark()) + ": " + e.getProblem());
        } catch (YAMLException e) {
            throw new InvalidRequestException(field, "is not acceptable YAML: " + e.getMessage());
        }
        if (!(document instanceof Map<?, ?> map)) {
            throw new InvalidRequestException(field, "must be a YAML mapping at the top level");
        }
        for (Object key : map.keySet()) {
            if (!(key instanceof String)) {
                throw new InvalidRequestException(field, "has a non-string key: " + key);
            }
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> mapping = (Map<String, Object>) map;
        return mapping;
    }

    private static String where(Mark mark) {
        return mark == null ? "" : " at line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1);
    }
}

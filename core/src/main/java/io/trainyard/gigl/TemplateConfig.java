package io.trainyard.gigl;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * Freezes a template task config for the trainer as GiGL's config populator does before the trainer starts:
 * each unset {@code sharedConfig.trainedModelMetadata} URI is filled from the job's layout. The trainer reads
 * the text, so the filled values are written into it ({@link YamlWriter}); a config with every URI set is kept
 * exactly as submitted.
 *
 * <p>Writing the whole config again was a tenth of a submission's CPU, though clients submit the same template
 * again and again and only the job's URIs differ. So a template's filled-in text is written once, with a
 * placeholder for each URI it leaves unset, and each job's text is that rendering with its URIs put in, each
 * written as the whole write would write it; where that cannot be exact (a placeholder written other than once
 * as a plain value, a URI that would take more than one line), the config is written whole.
 */
public final class TemplateConfig {

    private static final String FROZEN_HEADER = "Frozen by Trainyard from a template task config: the unset"
            + " sharedConfig.trainedModelMetadata URIs\nare filled as GiGL's config populator fills them.";
    /** Characters of template text kept at most. */
    private static final long MAX_RENDERED_CHARS = 8L * 1024 * 1024;

    /** A template, by its text, and the URIs it leaves unset, in their fields' order (the order they are written in). */
    private record Template(String yaml, List<String> unsetFields) {
    }

    /**
     * A template's filled-in text with a placeholder for each unset URI, each written exactly once, as a plain
     * value at the end of its line; {@code text} is null when the write did not keep them so.
     */
    private record Rendering(String text, Map<String, String> placeholders) {

        /** The text with these URIs (by field) in place of the placeholders; empty if one cannot be put in exactly. */
        Optional<String> with(Map<String, String> uris) {
            if (text == null) {
                return Optional.empty();
            }
            String filled = text;
            for (Map.Entry<String, String> uri : uris.entrySet()) {
                String scalar = YamlWriter.scalar(uri.getValue());
                if (scalar == null) {
                    return Optional.empty();
                }
                filled = filled.replace(placeholders.get(uri.getKey()), scalar);
            }
            return Optional.of(filled);
        }
    }

    private final Cache<Template, Rendering> renderings = Caffeine.newBuilder()
            .maximumWeight(MAX_RENDERED_CHARS)
            .weigher((Template template, Rendering rendering) -> template.yaml().length())
            .build();

    /** A task config as the trainer receives it: its text and the server's reading of it. */
    public record Frozen(String yaml, TaskConfig task) {
    }

    /**
     * @param config the task config as submitted, already read into {@code task}; left as it is
     * @param layout where the job's outputs go when the config names none
     */
    public Frozen fill(ConfigText config, TaskConfig task, TrainedModelMetadata layout) {
        TrainedModelMetadata given = task.trainedModelMetadata();
        TrainedModelMetadata filled = given.orElse(layout);
        if (filled.equals(given)) {
            return new Frozen(config.yaml(), task);
        }
        Map<String, String> added = new LinkedHashMap<>(filled.byField());
        added.keySet().removeAll(given.byField().keySet());
        Rendering rendering = renderings.get(new Template(config.yaml(), List.copyOf(added.keySet())),
                template -> render(config, template.unsetFields()));
        String text = rendering.with(added).orElseGet(() -> write(config, added));
        return new Frozen(text, task.withTrainedModelMetadata(filled));
    }

    private static Rendering render(ConfigText config, List<String> unsetFields) {
        String nonce = UUID.randomUUID().toString();
        Map<String, String> placeholders = new LinkedHashMap<>();
        unsetFields.forEach(field -> placeholders.put(field, "trainyard-" + field + "-" + nonce));
        String text = write(config, placeholders);
        boolean exact = placeholders.values().stream()
                .allMatch(placeholder -> occurrences(text, placeholder) == 1 && text.contains(": " + placeholder + "\n"));
        return new Rendering(exact ? text : null, placeholders);
    }

    private static int occurrences(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
            count++;
        }
        return count;
    }

    /** The config with these URIs (by field name) written into its trainedModelMetadata, as the trainer reads it. */
    static String write(ConfigText config, Map<String, String> uris) {
        // Copies of the mappings on the way to the URIs, so the submission's parse stays as it was read.
        Map<String, Object> document = new LinkedHashMap<>(config.document());
        Map<String, Object> metadata = mappingUnder(mappingUnder(document, "sharedConfig"), "trainedModelMetadata");
        uris.forEach((name, uri) -> metadata.put(keyAsWritten(metadata, name), uri));
        return YamlWriter.write(FROZEN_HEADER, document);
    }

    /** A copy of the mapping under {@code camelName} (or its snake_case spelling), put in its place; made if absent. */
    private static Map<String, Object> mappingUnder(Map<String, Object> parent, String camelName) {
        String key = keyAsWritten(parent, camelName);
        @SuppressWarnings("unchecked")
        Map<String, Object> copy = parent.get(key) instanceof Map<?, ?> existing
                ? new LinkedHashMap<>((Map<String, Object>) existing) : new LinkedHashMap<>();
        parent.put(key, copy);
        return copy;
    }

    /** The key the document already uses for a field (a blank URI is replaced in place), else its camelCase name. */
    private static String keyAsWritten(Map<String, Object> parent, String camelName) {
        String snakeName = ConfigNode.toSnakeCase(camelName);
        return !parent.containsKey(camelName) && parent.containsKey(snakeName) ? snakeName : camelName;
    }
}

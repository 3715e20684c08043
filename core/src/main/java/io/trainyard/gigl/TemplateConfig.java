package io.trainyard.gigl;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Freezes a template task config for the trainer as GiGL's config populator does before the trainer starts:
 * each unset {@code sharedConfig.trainedModelMetadata} URI is filled from the job's layout. The trainer reads
 * the text, so the filled values are written into it ({@link YamlWriter}); a config with every URI set is kept
 * exactly as submitted.
 */
public final class TemplateConfig {

    private static final String FROZEN_HEADER = "Frozen by Trainyard from a template task config: the unset"
            + " sharedConfig.trainedModelMetadata URIs\nare filled as GiGL's config populator fills them.";

    private TemplateConfig() {
    }

    /** A task config as the trainer receives it: its text and the server's reading of it. */
    public record Frozen(String yaml, TaskConfig task) {
    }

    /**
     * @param config the task config as submitted, already read into {@code task}; left as it is
     * @param layout where the job's outputs go when the config names none
     */
    public static Frozen fill(ConfigText config, TaskConfig task, TrainedModelMetadata layout) {
        TrainedModelMetadata given = task.trainedModelMetadata();
        TrainedModelMetadata filled = given.orElse(layout);
        if (filled.equals(given)) {
            return new Frozen(config.yaml(), task);
        }
        // Copies of the mappings on the way to the URIs, so the submission's parse stays as it was read.
        Map<String, Object> document = new LinkedHashMap<>(config.document());
        Map<String, Object> metadata = mappingUnder(mappingUnder(document, "sharedConfig"), "trainedModelMetadata");
        filled.byField().forEach((name, uri) -> {
            if (!given.byField().containsKey(name)) {
                metadata.put(keyAsWritten(metadata, name), uri);
            }
        });
        return new Frozen(YamlWriter.write(FROZEN_HEADER, document), task.withTrainedModelMetadata(filled));
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

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
     * @param field the request field the text came from
     * @param yaml the task config as submitted, already read into {@code task}
     * @param layout where the job's outputs go when the config names none
     */
    public static Frozen fill(String field, String yaml, TaskConfig task, TrainedModelMetadata layout) {
        TrainedModelMetadata given = task.trainedModelMetadata();
        TrainedModelMetadata filled = given.orElse(layout);
        if (filled.equals(given)) {
            return new Frozen(yaml, task);
        }
        Map<String, Object> document = SafeYamlParser.parseMapping(field, yaml);
        Map<String, Object> metadata = mappingUnder(mappingUnder(document, "sharedConfig"), "trainedModelMetadata");
        filled.byField().forEach((name, uri) -> {
            if (!given.byField().containsKey(name)) {
                metadata.put(keyAsWritten(metadata, name), uri);
            }
        });
        return new Frozen(YamlWriter.write(FROZEN_HEADER, document), task.withTrainedModelMetadata(filled));
    }

    /** The mapping under {@code camelName} (or its snake_case spelling), made if absent. */
    private static Map<String, Object> mappingUnder(Map<String, Object> parent, String camelName) {
        String key = keyAsWritten(parent, camelName);
        if (parent.get(key) instanceof Map<?, ?> existing) {
            @SuppressWarnings("unchecked")
            Map<String, Object> typed = (Map<String, Object>) existing;
            return typed;
        }
        Map<String, Object> made = new LinkedHashMap<>();
        parent.put(key, made);
        return made;
    }

    /** The key the document already uses for a field (a blank URI is replaced in place), else its camelCase name. */
    private static String keyAsWritten(Map<String, Object> parent, String camelName) {
        String snakeName = ConfigNode.toSnakeCase(camelName);
        return !parent.containsKey(camelName) && parent.containsKey(snakeName) ? snakeName : camelName;
    }
}

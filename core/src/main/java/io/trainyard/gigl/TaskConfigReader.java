package io.trainyard.gigl;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.trainyard.validation.InvalidRequestException;
import io.trainyard.validation.Violations;

/**
 * Reads and checks a GiGL task config, template or frozen, reporting every violation with its field path. A
 * template's unset {@code trainedModelMetadata} URIs are left unset here: the backend's layout fills them
 * ({@link TemplateConfig}), as GiGL's config populator does before the trainer starts.
 */
public final class TaskConfigReader {

    private static final String GLT_FLAG = "should_run_glt_backend";
    private static final List<String> SUPPORTED_SCHEMES = List.of("gs://", "file://");

    private TaskConfigReader() {
    }

    /**
     * @param field the request field the YAML came from (the root of every reported path)
     * @throws InvalidRequestException listing every violation found
     */
    public static TaskConfig read(String field, String yaml) {
        return read(ConfigText.parse(field, yaml));
    }

    /** @throws InvalidRequestException listing every violation found */
    public static TaskConfig read(ConfigText config) {
        return read(config.field(), config.document(), true);
    }

    /**
     * The typed reading of a config stored under earlier rules (a migration): it passed the rules of its day,
     * so what later rules refuse is not refused here.
     */
    public static TaskConfig readStored(String yaml) {
        return read("taskConfig", SafeYamlParser.parseMapping("taskConfig", yaml), false);
    }

    private static TaskConfig read(String field, Map<String, Object> document, boolean enforce) {
        Violations violations = new Violations();
        KnownFields.check(document, GiglProtos.GBML_CONFIG, field, violations);
        ConfigNode root = ConfigNode.root(field, document, violations);

        TaskKind taskKind = readTaskKind(root.child("taskMetadata"));

        Map<String, String> featureFlags = root.child("featureFlags").stringMap();
        boolean glt = false;
        if (featureFlags.containsKey(GLT_FLAG)) {
            Boolean parsed = PythonBool.parse(featureFlags.get(GLT_FLAG));
            if (parsed == null) {
                violations.add(field + ".featureFlags." + GLT_FLAG,
                        "must be a boolean string such as \"True\" or \"False\", got '" + featureFlags.get(GLT_FLAG) + "'");
            } else {
                glt = parsed;
            }
        }

        ConfigNode shared = root.child("sharedConfig");
        boolean skipTraining = shared.child("shouldSkipTraining").bool(false);
        boolean skipEvaluation = shared.child("shouldSkipModelEvaluation").bool(false);
        ConfigNode metadata = shared.child("trainedModelMetadata");
        TrainedModelMetadata outputs = new TrainedModelMetadata(readUri(metadata.child("trainedModelUri")),
                readUri(metadata.child("scriptedModelUri")), readUri(metadata.child("evalMetricsUri")),
                readUri(metadata.child("tensorboardLogsUri")));

        ConfigNode trainer = root.child("trainerConfig");
        String command = glt
                ? trainer.child("command").requiredString(" when featureFlags." + GLT_FLAG + " is True")
                : trainer.child("command").string();
        String clsPath = readClsPath(trainer, glt, skipTraining);
        Map<String, String> trainerArgs = trainer.child("trainerArgs").stringMap();
        boolean logToTensorboard = trainer.child("shouldLogToTensorboard").bool(false);
        ConfigNode storage = trainer.child("graphStoreStorageConfig");
        TaskConfig.GraphStoreStorage graphStoreStorage = storage.isPresent()
                ? new TaskConfig.GraphStoreStorage(storage.child("command").string(), storage.child("storageArgs").stringMap())
                : null;

        if (enforce) {
            violations.throwIfAny();
        }
        return new TaskConfig(taskKind, command, trainerArgs, clsPath, logToTensorboard, glt, skipTraining,
                skipEvaluation, outputs, graphStoreStorage);
    }

    /** GiGL's validator needs a task kind; two of them are a oneof, which {@link KnownFields} reports. */
    private static TaskKind readTaskKind(ConfigNode taskMetadata) {
        for (TaskKind kind : TaskKind.values()) {
            if (taskMetadata.child(kind.fieldName()).isPresent()) {
                return kind;
            }
        }
        taskMetadata.reject((taskMetadata.isPresent() ? "must hold a task kind: one of " : "is required: one of ")
                + Arrays.stream(TaskKind.values()).map(TaskKind::fieldName).toList());
        return null;
    }

    /** The legacy (tabularized) path names the user's trainer class; GiGL refuses to train without it. */
    private static String readClsPath(ConfigNode trainer, boolean glt, boolean skipTraining) {
        String trainerClsPath = trainer.child("trainerClsPath").string();
        String clsPath = trainer.child("clsPath").string();
        String chosen = trainerClsPath != null ? trainerClsPath : clsPath;
        if (!glt && !skipTraining && (chosen == null || chosen.isBlank())) {
            trainer.child("trainerClsPath").reject(
                    "is required (or clsPath) when featureFlags." + GLT_FLAG + " is not True: the legacy trainer needs the class to train");
        }
        return chosen;
    }

    private static String readUri(ConfigNode node) {
        String uri = node.string();
        if (uri != null && uri.contains("://") && SUPPORTED_SCHEMES.stream().noneMatch(uri::startsWith)) {
            node.reject("'" + uri + "' has an unsupported scheme; use a local path, file:// or gs://");
        }
        return uri == null || uri.isBlank() ? null : uri;
    }
}

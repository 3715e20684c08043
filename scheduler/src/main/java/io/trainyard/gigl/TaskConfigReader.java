package io.trainyard.gigl;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.trainyard.validation.InvalidRequestException;
import io.trainyard.validation.Violations;

/** Reads and checks a GiGL task config, reporting every violation with its field path. */
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
        Map<String, Object> document = SafeYamlParser.parseMapping(field, yaml);
        Violations violations = new Violations();
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
        TrainedModelMetadata outputs = new TrainedModelMetadata(
                readUri(metadata.child("trainedModelUri"), !skipTraining),
                readUri(metadata.child("scriptedModelUri"), false),
                readUri(metadata.child("evalMetricsUri"), false),
                readUri(metadata.child("tensorboardLogsUri"), false));

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

        violations.throwIfAny();
        return new TaskConfig(taskKind, command, trainerArgs, clsPath, logToTensorboard, glt, skipTraining,
                skipEvaluation, outputs, graphStoreStorage);
    }

    private static TaskKind readTaskKind(ConfigNode taskMetadata) {
        if (!taskMetadata.isPresent()) {
            taskMetadata.reject("is required: one of " + Arrays.stream(TaskKind.values()).map(TaskKind::fieldName).toList());
            return null;
        }
        TaskKind found = null;
        for (TaskKind kind : TaskKind.values()) {
            if (taskMetadata.child(kind.fieldName()).isPresent()) {
                if (found != null) {
                    taskMetadata.reject("must hold exactly one task kind, found " + found.fieldName() + " and " + kind.fieldName());
                }
                found = kind;
            }
        }
        if (found == null && !taskMetadata.keys().isEmpty()) {
            taskMetadata.reject("has an unknown task kind " + taskMetadata.keys() + "; expected one of "
                    + Arrays.stream(TaskKind.values()).map(TaskKind::fieldName).toList());
        } else if (found == null) {
            taskMetadata.reject("must hold one task kind");
        }
        return found;
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

    private static String readUri(ConfigNode node, boolean required) {
        String uri = required ? node.requiredString(" to save the trained model") : node.string();
        if (uri != null && uri.contains("://") && SUPPORTED_SCHEMES.stream().noneMatch(uri::startsWith)) {
            node.reject("'" + uri + "' has an unsupported scheme; use a local path, file:// or gs://");
        }
        return uri == null || uri.isBlank() ? null : uri;
    }
}

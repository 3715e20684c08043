package io.trainyard.gigl;

import java.util.LinkedHashMap;
import java.util.Map;

/** {@code sharedConfig.trainedModelMetadata}: where the trainer writes its outputs. Absent URIs are null. */
public record TrainedModelMetadata(
        String trainedModelUri, String scriptedModelUri, String evalMetricsUri, String tensorboardLogsUri) {

    /**
     * GiGL's layout of a job's trainer outputs under its trainer asset folder (the config populator's paths:
     * {@code models/model.pt}, {@code models/scripted_model.pt}, {@code models/trainer_eval_metrics.json} and
     * {@code logs/}).
     *
     * @param trainerAssetFolder the folder, without a trailing slash
     */
    public static TrainedModelMetadata giglLayoutUnder(String trainerAssetFolder) {
        String models = trainerAssetFolder + "/models/";
        return new TrainedModelMetadata(models + "model.pt", models + "scripted_model.pt",
                models + "trainer_eval_metrics.json", trainerAssetFolder + "/logs/");
    }

    /** These URIs, each unset one taken from {@code defaults}. */
    public TrainedModelMetadata orElse(TrainedModelMetadata defaults) {
        return new TrainedModelMetadata(trainedModelUri != null ? trainedModelUri : defaults.trainedModelUri,
                scriptedModelUri != null ? scriptedModelUri : defaults.scriptedModelUri,
                evalMetricsUri != null ? evalMetricsUri : defaults.evalMetricsUri,
                tensorboardLogsUri != null ? tensorboardLogsUri : defaults.tensorboardLogsUri);
    }

    /** The URIs that are set, by field name, in field order. */
    public Map<String, String> byField() {
        Map<String, String> uris = new LinkedHashMap<>();
        uris.put("trainedModelUri", trainedModelUri);
        uris.put("scriptedModelUri", scriptedModelUri);
        uris.put("evalMetricsUri", evalMetricsUri);
        uris.put("tensorboardLogsUri", tensorboardLogsUri);
        uris.values().removeIf(uri -> uri == null || uri.isBlank());
        return uris;
    }
}

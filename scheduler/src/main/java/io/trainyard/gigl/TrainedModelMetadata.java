package io.trainyard.gigl;

import java.util.LinkedHashMap;
import java.util.Map;

/** {@code sharedConfig.trainedModelMetadata}: where the trainer writes its outputs. Absent URIs are null. */
public record TrainedModelMetadata(
        String trainedModelUri, String scriptedModelUri, String evalMetricsUri, String tensorboardLogsUri) {

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

package io.trainyard.api;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import io.trainyard.client.model.Job;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads a finished job's eval metrics file, which the runtime writes in GiGL's format
 * ({@code {"metrics": [{"name": "mrr", "numberValue": "0.71", "format": "RAW"}]}}; GiGL's
 * python/gigl/src/common/translators/model_eval_metrics_translator.py).
 */
final class EvalMetrics {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private EvalMetrics() {
    }

    static Map<String, Double> read(Job job) throws Exception {
        Path file = Path.of(URI.create(job.getOutputs().get("evalMetricsUri")));
        Map<String, Double> metrics = new LinkedHashMap<>();
        for (JsonNode entry : JSON.readTree(Files.readString(file)).get("metrics")) {
            metrics.put(entry.get("name").asString(), Double.parseDouble(entry.get("numberValue").asString()));
        }
        return metrics;
    }
}

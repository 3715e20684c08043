package io.trainyard.agent.protocol;

import java.util.Map;

/**
 * The run's processes are started.
 *
 * @param runState what finds them again after a restart
 * @param outputs where the job's outputs land on this host, by trainedModelMetadata field, as URIs
 */
public record Started(long epoch, String runState, Map<String, String> outputs) {

    public Started {
        outputs = outputs == null ? Map.of() : outputs;
    }
}

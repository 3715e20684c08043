package io.trainyard.protocol;

import java.util.Map;

import jakarta.validation.constraints.NotBlank;

/**
 * The run's processes are started.
 *
 * @param runState what finds them again after a restart (the agent's own JSON; the server keeps it as is)
 * @param outputs where the job's outputs land on this host, by trainedModelMetadata field, as URIs
 */
public record Started(long epoch, @NotBlank String runState, Map<String, String> outputs) {

    public Started {
        outputs = outputs == null ? Map.of() : outputs;
    }
}

package io.trainyard.protocol;

import java.time.Instant;
import java.util.Map;

import jakarta.validation.constraints.NotBlank;

/**
 * The run's processes are started.
 *
 * @param runState what finds them again after a restart (the agent's own JSON; the server keeps it as is)
 * @param outputs where the job's outputs land on this host, by trainedModelMetadata field, as URIs
 * @param rendezvous where the processes meet ({@code host:port}): the other hosts of a job that spans several
 *     are sent there
 * @param processesStartedAt when the agent had started them, by its clock: the job's start time (the server keeps it
 *     between the claim and the report's arrival); null from agents older than this field, taken as the arrival
 */
public record Started(long epoch, @NotBlank String runState, Map<String, String> outputs, String rendezvous,
        Instant processesStartedAt) {

    public Started {
        outputs = outputs == null ? Map.of() : outputs;
    }
}

package io.trainyard.gigl;

import java.util.Map;

/**
 * The {@code trainerResourceConfig} of a GiGL resource config: where and on what the trainer runs. Exactly
 * one kind is given; the kind picks the backend.
 */
public sealed interface TrainerResource {

    /** The resource config field that named this kind, e.g. {@code localTrainerConfig}. */
    String kind();

    /** {@code localTrainerConfig}: {@code numWorkers} trainer processes on a host of the local pool. */
    record Local(int numWorkers) implements TrainerResource {
        @Override
        public String kind() {
            return "localTrainerConfig";
        }
    }

    /** {@code vertexAiTrainerConfig}: a Vertex AI CustomJob. {@code timeoutSeconds} is null when not given. */
    record VertexAi(String machineType, String gpuType, int gpuLimit, int numReplicas, Long timeoutSeconds,
            String gcpRegionOverride, String schedulingStrategy, Integer bootDiskSizeGb,
            Map<String, String> reservationAffinity)
            implements TrainerResource {
        @Override
        public String kind() {
            return "vertexAiTrainerConfig";
        }
    }

    /** {@code vertexAiGraphStoreTrainerConfig}: a compute pool beside a graph-store pool. */
    record VertexAiGraphStore(VertexAi graphStorePool, VertexAi computePool, int computeClusterLocalWorldSize)
            implements TrainerResource {
        @Override
        public String kind() {
            return "vertexAiGraphStoreTrainerConfig";
        }
    }

    /** {@code customTrainerConfig} or {@code kfpTrainerConfig}: accepted by the parser, run by no backend yet. */
    record Other(String kind) implements TrainerResource {
    }
}

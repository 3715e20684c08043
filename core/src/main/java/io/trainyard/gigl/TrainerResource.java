package io.trainyard.gigl;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * The {@code trainerResourceConfig} of a GiGL resource config: where and on what the trainer runs. Exactly
 * one kind is given; the kind picks the backend. Stored with the job as JSON, tagged by {@code @type}.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "@type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = TrainerResource.Local.class, name = "local"),
        @JsonSubTypes.Type(value = TrainerResource.VertexAi.class, name = "vertexAi"),
        @JsonSubTypes.Type(value = TrainerResource.VertexAiGraphStore.class, name = "vertexAiGraphStore"),
        @JsonSubTypes.Type(value = TrainerResource.Other.class, name = "other")})
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

    /**
     * {@code vertexAiTrainerConfig}: a Vertex AI CustomJob. {@code timeoutSeconds} is null when not given;
     * {@code reservationAffinity} is null when not given; {@code tensorboardResourceName} names the job's
     * Vertex AI TensorBoard instance, or is null.
     */
    record VertexAi(String machineType, String gpuType, int gpuLimit, int numReplicas, Long timeoutSeconds,
            String gcpRegionOverride, String schedulingStrategy, Integer bootDiskSizeGb,
            ReservationAffinity reservationAffinity, String tensorboardResourceName)
            implements TrainerResource {
        @Override
        public String kind() {
            return "vertexAiTrainerConfig";
        }
    }

    /**
     * {@code reservationAffinity}: {@code type} is NO_RESERVATION, ANY_RESERVATION or SPECIFIC_RESERVATION;
     * only the last names reservations ({@code projects/p/zones/z/reservations/n}).
     */
    record ReservationAffinity(String type, List<String> reservationResourceNames) {
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

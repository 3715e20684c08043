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

    /** The trainer processes the config asks for where it says (a local trainer's {@code numWorkers}); else one. */
    default int workers() {
        return 1;
    }

    /** The job's timeout where the config gives one (a Vertex AI pool's {@code timeoutSeconds}); else null. */
    default Long timeoutSeconds() {
        return null;
    }

    /** {@code localTrainerConfig}: {@code numWorkers} trainer processes on a host of the local pool. */
    record Local(int numWorkers) implements TrainerResource {

        public static final String KIND = "localTrainerConfig";

        @Override
        public String kind() {
            return KIND;
        }

        @Override
        public int workers() {
            return numWorkers;
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

        public static final String KIND = "vertexAiTrainerConfig";

        @Override
        public String kind() {
            return KIND;
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

        public static final String KIND = "vertexAiGraphStoreTrainerConfig";

        @Override
        public String kind() {
            return KIND;
        }

        /** GiGL takes a graph-store job's timeout from its compute pool. */
        @Override
        public Long timeoutSeconds() {
            return computePool.timeoutSeconds();
        }

        /**
         * The processes of both pools, as one world: {@link #computeProcessesPerReplica()} per compute replica,
         * one per storage replica.
         */
        @Override
        public int workers() {
            return computePool.numReplicas() * computeProcessesPerReplica() + graphStorePool.numReplicas();
        }

        /** {@code computeClusterLocalWorldSize}; when unset, one per GPU of a compute replica, else one. */
        public int computeProcessesPerReplica() {
            return computeClusterLocalWorldSize > 0 ? computeClusterLocalWorldSize : Math.max(computePool.gpuLimit(), 1);
        }
    }

    /** {@code customTrainerConfig} or {@code kfpTrainerConfig}: accepted by the parser, run by no backend yet. */
    record Other(String kind) implements TrainerResource {
    }
}

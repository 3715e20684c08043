package io.trainyard.job;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import org.jspecify.annotations.NullMarked;

/**
 * Where a job's current attempt runs, as its backend placed it: stored on the job and shown to users. The
 * two kinds have no field in common, so the stored JSON needs no type tag (Jackson tells them apart by
 * their fields).
 */
@NullMarked
@JsonTypeInfo(use = JsonTypeInfo.Id.DEDUCTION)
@JsonSubTypes({@JsonSubTypes.Type(Placement.OnAgent.class), @JsonSubTypes.Type(Placement.OnVertexAi.class)})
public sealed interface Placement {

    /**
     * All of a job's workers on one agent ({@code node}), one GPU each ({@code device = "gpu"}) or on CPU
     * slots ({@code device = "cpu"}). The pool's free capacity is derived from these.
     */
    record OnAgent(String node, String device, List<Integer> gpus, int cpuSlots) implements Placement {

        public static OnAgent onGpus(String node, List<Integer> gpus) {
            return new OnAgent(node, "gpu", List.copyOf(gpus), 0);
        }

        public static OnAgent onCpu(String node, int cpuSlots) {
            return new OnAgent(node, "cpu", List.of(), cpuSlots);
        }

        public boolean usesGpus() {
            return "gpu".equals(device);
        }
    }

    /** A Vertex AI CustomJob in this project and region; Vertex AI chooses the machines. */
    record OnVertexAi(String project, String region) implements Placement {
    }
}

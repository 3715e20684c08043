package io.trainyard.job;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.swagger.v3.oas.annotations.media.DiscriminatorMapping;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.NullMarked;

/**
 * Where a job's current attempt runs, as its backend placed it: stored on the job and shown to users. Tagged
 * by {@code kind} ({@code agent}, {@code vertexAi}), stored and served alike, so that clients generated from
 * the contract pick the shape by the tag (an OpenAPI discriminator) rather than by trying each.
 */
@NullMarked
@Schema(discriminatorProperty = "kind", discriminatorMapping = {
        @DiscriminatorMapping(value = "agent", schema = Placement.OnAgent.class),
        @DiscriminatorMapping(value = "vertexAi", schema = Placement.OnVertexAi.class)})
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "kind")
@JsonSubTypes({@JsonSubTypes.Type(value = Placement.OnAgent.class, name = "agent"),
        @JsonSubTypes.Type(value = Placement.OnVertexAi.class, name = "vertexAi")})
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

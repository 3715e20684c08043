package io.trainyard.backend.vertexai;

import io.swagger.v3.oas.annotations.media.Schema;
import io.trainyard.job.Placement;
import org.jspecify.annotations.NullMarked;

/**
 * Where a Vertex AI job runs: a CustomJob in this project and region; Vertex AI chooses the machines. Stored on
 * the job tagged {@value #KIND}; its schema keeps the name the API has always given it.
 */
@Schema(name = "OnVertexAi", description = "A Vertex AI CustomJob in this project and region")
@NullMarked
public record VertexAiPlacement(String project, String region) {

    public static final String KIND = "vertexAi";

    /** This placement as the core stores it. */
    public Placement tagged() {
        return Placement.of(KIND, this);
    }
}

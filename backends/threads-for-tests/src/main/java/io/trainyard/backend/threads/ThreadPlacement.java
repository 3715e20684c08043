package io.trainyard.backend.threads;

import io.swagger.v3.oas.annotations.media.Schema;
import io.trainyard.job.Placement;
import org.jspecify.annotations.NullMarked;

/** Where a job of the thread backend runs: a named thread of the server {@code node}. */
@NullMarked
@Schema(name = "OnThread", description = "A thread of the server's JVM")
public record ThreadPlacement(String node, String thread) {

    public static final String KIND = "thread";

    public Placement tagged() {
        return Placement.of(KIND, this);
    }
}

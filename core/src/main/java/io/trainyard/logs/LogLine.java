package io.trainyard.logs;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;
import io.trainyard.protocol.LogStream;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * A stored log line, and the JSON object the API serves for it. {@code seq} numbers a job's lines from 1
 * across all its attempts, so a follower can resume after any line it has seen.
 */
@NullMarked
public record LogLine(long seq, int attempt, Instant time, LogStream stream, int rank,
        @JsonInclude(JsonInclude.Include.NON_NULL)
        @Schema(description = "The agent whose process printed it, on a job spanning several agents; absent otherwise")
        @Nullable String host,
        String text) {
}

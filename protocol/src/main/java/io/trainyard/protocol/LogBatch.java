package io.trainyard.protocol;

import java.util.List;
import java.util.Map;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/**
 * The next lines of a run's log.
 *
 * @param batch numbered 1, 2, … per attempt; a batch is resent until acknowledged, and one whose number was
 *     stored already is acknowledged without being stored again
 * @param positions for each output file the lines came from, the byte offset just past the last of them
 */
public record LogBatch(
        long epoch,
        @Min(1) long batch,
        @NotNull @Size(max = LineQueue.MAX_LINES_PER_BATCH) List<@NotNull OutputLine> lines,
        @NotNull Map<String, Long> positions) {
}

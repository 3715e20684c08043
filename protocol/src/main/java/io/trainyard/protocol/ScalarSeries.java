package io.trainyard.protocol;

import com.fasterxml.jackson.annotation.JsonIgnore;
import jakarta.validation.constraints.NotNull;

/**
 * Scalar points of one tag written by one trainer process, in the order they were read: the arrays are parallel
 * (point {@code i} is {@code steps[i]}, {@code wallTimes[i]}, {@code values[i]}), which keeps a batch of many
 * points small on the wire and quick to parse.
 *
 * @param rank the trainer process (torch.distributed rank) whose event file the points came from
 * @param wallTimes seconds since the epoch, as the trainer's writer recorded them
 */
public record ScalarSeries(@NotNull String tag, int rank, @NotNull long[] steps, @NotNull double[] wallTimes,
        @NotNull double[] values) {

    public int size() {
        return steps.length;
    }

    /** Whether the three arrays hold the same number of points. */
    @JsonIgnore
    public boolean isAligned() {
        return steps.length == wallTimes.length && steps.length == values.length;
    }
}

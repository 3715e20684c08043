package io.trainyard.backend;

import java.time.Instant;
import java.util.List;

/** A backend's cluster partitions as read at {@code readAt}: a reading is kept a few seconds, not fetched per request. */
public record PartitionReading(Instant readAt, List<Partition> partitions) {

    public PartitionReading {
        partitions = List.copyOf(partitions);
    }
}

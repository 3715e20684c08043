package io.trainyard.backend.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.trainyard.backend.slurm.SlurmCommands.QueuedJob;
import org.junit.jupiter.api.Test;

class SlurmCommandsTest {

    @Test
    void squeuesLinesAreReadAndOtherJobsShapesSkipped() {
        String out = """
                41|trainyard-0d7f-1|PENDING|Resources|
                42|trainyard-0d7f-2|RUNNING|None|node[1-2]
                43_1|array|RUNNING|None|node1
                44+0|het|RUNNING|None|node2
                """;

        assertThat(SlurmCommands.parseQueue(out)).containsExactly(
                new QueuedJob(41, "trainyard-0d7f-1", "PENDING", "Resources", ""),
                new QueuedJob(42, "trainyard-0d7f-2", "RUNNING", "None", "node[1-2]"));
        assertThat(SlurmCommands.parseQueue("")).isEqualTo(List.of());
    }
}

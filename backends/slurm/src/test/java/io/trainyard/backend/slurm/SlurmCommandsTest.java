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

    @Test
    void sinfosNodesAreReadWithTheirPartitionsAndGpus() {
        String out = """
                node1|debug*|4|gpu:2
                node2|gpu|64|gpu:a100:4(S:0-1),gpu:v100:1
                node3|cpu|128|(null)
                node4|gpu|4+|gpu:2
                """;

        assertThat(SlurmCommands.parseNodes(out)).containsExactly(
                new SlurmPartitions.Node("node1", "debug", true, 4, 2),
                new SlurmPartitions.Node("node2", "gpu", false, 64, 5),
                new SlurmPartitions.Node("node3", "cpu", false, 128, 0));
        assertThat(SlurmCommands.gpus("gpu")).isEqualTo(1);
        assertThat(SlurmCommands.gpus("gpu:h100")).isEqualTo(1);
    }
}

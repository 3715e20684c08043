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
                node1|debug*|4|2/2/0/4|gpu:2|gpu:2|mixed
                node2|gpu|64|0/64/0/64|gpu:a100:4(S:0-1),gpu:v100:1|gpu:a100:2(IDX:0,2),gpu:v100:0(IDX:N/A)|idle
                node3|cpu|128|128/0/0/128|(null)|gpu:0|allocated
                node4|gpu|4+|0/4/0/4|gpu:2|gpu:0|idle
                """;

        assertThat(SlurmCommands.parseNodes(out)).containsExactly(
                new SlurmPartitions.Node("node1", "debug", true, "mixed", 4, 2, 2, 2),
                new SlurmPartitions.Node("node2", "gpu", false, "idle", 64, 0, 5, 2),
                new SlurmPartitions.Node("node3", "cpu", false, "allocated", 128, 128, 0, 0));
        assertThat(SlurmCommands.gpus("gpu")).isEqualTo(1);
        assertThat(SlurmCommands.gpus("gpu:h100")).isEqualTo(1);
        assertThat(SlurmCommands.gpus("gpu:(null):0(IDX:N/A)")).isEqualTo(0);
    }
}

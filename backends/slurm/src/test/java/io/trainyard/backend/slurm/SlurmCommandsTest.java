package io.trainyard.backend.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;

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
    void sacctSaysWhoCancelledAJobAndTheOperatorsCommentWhy() {
        SlurmCommands.Cancellation byAlice = SlurmCommands.parseCancellation("CANCELLED by 1001|None|node 3 | maintenance\n").orElseThrow();
        SlurmCommands.Cancellation whilePending = SlurmCommands.parseCancellation("CANCELLED by 0|Resources|\n").orElseThrow();

        assertThat(byAlice).isEqualTo(new SlurmCommands.Cancellation(1001, "node 3 | maintenance", "None"));
        assertThat(byAlice.describe(Optional.of("alice")))
                .isEqualTo("cancelled in Slurm by alice (uid 1001), not through Trainyard: node 3 | maintenance");
        assertThat(whilePending.describe(Optional.empty())).isEqualTo("cancelled in Slurm by uid 0, not through Trainyard; "
                + "no reason given (an operator can leave one as the job's AdminComment) (Slurm's reason: Resources)");
        // Accounting that has not recorded the end yet.
        assertThat(SlurmCommands.parseCancellation("RUNNING|None|\n")).isEmpty();
        assertThat(SlurmCommands.parseCancellation("")).isEmpty();
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

package io.trainyard.backend.local.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.trainyard.backend.PlacementDecision;
import org.junit.jupiter.api.Test;

class PlacerTest {

    @Test
    void allWorkersGoToOneAgentAndTheTightestFitWins() {
        AgentCapacity roomy = new AgentCapacity("roomy", List.of(0, 1, 2, 3, 4, 5, 6, 7), 32);
        AgentCapacity tight = new AgentCapacity("tight", List.of(0, 1, 2, 3, 4, 5, 6, 7), 32);
        tight.take(onGpus("tight", 0, 1, 2, 3, 4, 5));

        PlacementDecision twoGpus = Placer.place(new Demand(2, true), List.of(roomy, tight));
        PlacementDecision threeGpus = Placer.place(new Demand(3, true), List.of(roomy, tight));

        assertThat(twoGpus).isEqualTo(placed(AgentPlacement.onGpus("tight", List.of(6, 7))));
        assertThat(threeGpus).isEqualTo(placed(AgentPlacement.onGpus("roomy", List.of(0, 1, 2))));
    }

    @Test
    void aJobOneHostCouldHoldWaitsForOneAndOneNoHostCouldHoldIsSpreadOverTheFewest() {
        AgentCapacity a = new AgentCapacity("a", List.of(0, 1, 2, 3), 16);
        AgentCapacity b = new AgentCapacity("b", List.of(0, 1, 2, 3), 16);
        a.take(onGpus("a", 0, 1));
        b.take(onGpus("b", 0));

        // 5 free GPUs in all, but no host has 4 free: a job one host could hold is not split.
        assertThat(Placer.place(new Demand(4, true), List.of(a, b)))
                .isEqualTo(new PlacementDecision.Wait("needs 4 GPU(s) on one host; the best host, b, has 3 of 4 GPU(s) free"));
        // No host could ever hold 5: the host with the most free GPUs runs ranks 0-2, the other ranks 3-4.
        assertThat(Placer.place(new Demand(5, true), List.of(a, b))).isEqualTo(placed(AgentPlacement.gang("gpu", List.of(
                new HostShare("b", List.of(1, 2, 3), 0, 0, 3), new HostShare("a", List.of(2, 3), 0, 3, 2)))));
        assertThat(Placer.place(new Demand(6, true), List.of(a, b)))
                .isEqualTo(new PlacementDecision.Wait("needs 6 GPU(s) free on 2 hosts; the 2 with the most free have 5"));
        assertThat(Placer.place(new Demand(9, true), List.of(a, b))).isEqualTo(new PlacementDecision.Never(
                "the job requires 9 GPU(s); the largest host has 4 and the pool 8 on 2 host(s)"));
        assertThat(Placer.place(new Demand(5, false), List.of(a, b))).isEqualTo(placed(AgentPlacement.onCpu("a", 5)));
    }

    @Test
    void aJobAskingForNodesRunsTheSameShareOnThatManyHostsAllAtOnceOrWaits() {
        AgentCapacity a = new AgentCapacity("a", List.of(0, 1, 2, 3), 16);
        AgentCapacity b = new AgentCapacity("b", List.of(0, 1, 2, 3), 16);
        AgentCapacity c = new AgentCapacity("c", List.of(0, 1, 2, 3), 16);
        b.take(onGpus("b", 0));

        // Best fit: b, with 3 free, is the tightest fit for 2 GPUs; then a, listed before c.
        assertThat(Placer.place(new Demand(4, true, 2), List.of(a, b, c))).isEqualTo(placed(AgentPlacement.gang("gpu", List.of(
                new HostShare("b", List.of(1, 2), 0, 0, 2), new HostShare("a", List.of(0, 1), 0, 2, 2)))));
        c.take(onGpus("c", 0));
        // Only a has 4 free: the gang waits whole, saying what it lacks.
        assertThat(Placer.place(new Demand(8, true, 2), List.of(a, b, c)))
                .isEqualTo(new PlacementDecision.Wait("needs 2 hosts with 4 GPU(s) free; 1 has"));
        assertThat(Placer.place(new Demand(8, true, 4), List.of(a, b, c)))
                .isEqualTo(new PlacementDecision.Never("the job needs 4 hosts with 2 GPU(s) each and the pool has 3"));
    }

    @Test
    void aCpuJobAskingForNodesTakesCpuSlotsOnEachHost() {
        AgentCapacity a = new AgentCapacity("a", List.of(), 2);
        AgentCapacity b = new AgentCapacity("b", List.of(), 2);

        assertThat(Placer.place(new Demand(6, false, 2), List.of(a, b))).isEqualTo(placed(AgentPlacement.gang("cpu", List.of(
                new HostShare("a", List.of(), 2, 0, 3), new HostShare("b", List.of(), 2, 3, 3)))));
        b.take(new HostShare("b", List.of(), 1, 0, 1));
        assertThat(Placer.place(new Demand(6, false, 2), List.of(a, b)))
                .isEqualTo(new PlacementDecision.Wait("needs 2 hosts with room for 3 worker(s) on CPU slots free; 1 has"));
    }

    @Test
    void takingAGangsPlacementTakesItsShareOnEveryHost() {
        AgentCapacity a = new AgentCapacity("a", List.of(0, 1), 4);
        AgentCapacity b = new AgentCapacity("b", List.of(0, 1), 4);
        AgentPlacement gang = AgentPlacement.gang("gpu", List.of(new HostShare("a", List.of(0, 1), 0, 0, 2),
                new HostShare("b", List.of(1), 0, 2, 1)));

        Placer.take(List.of(a, b), gang, 3);

        assertThat(a.freeGpuCount()).isZero();
        assertThat(b.describeFree()).isEqualTo("1 of 2 GPU(s) free");
        assertThat(gang.hosts(3)).extracting(HostShare::workers).containsExactly(2, 1);
    }

    @Test
    void cpuHostsRunAnyJobThatDoesNotInsistOnGpusOnceTheyAreFreeEnough() {
        AgentCapacity host = new AgentCapacity("cpu", List.of(), 2);

        assertThat(Placer.place(new Demand(8, false), List.of(host))).isEqualTo(placed(AgentPlacement.onCpu("cpu", 2)));
        host.take(new HostShare("cpu", List.of(), 1, 0, 1));
        assertThat(Placer.place(new Demand(8, false), List.of(host)))
                .isEqualTo(new PlacementDecision.Wait("needs 2 CPU slot(s) on one host; the best host, cpu, has 1 of 2 CPU slot(s) free"));
        assertThat(Placer.place(new Demand(1, false), List.of(host))).isEqualTo(placed(AgentPlacement.onCpu("cpu", 1)));
        assertThat(Placer.place(new Demand(1, true), List.of(host))).isInstanceOf(PlacementDecision.Never.class);
    }

    @Test
    void withNoAgentRegisteredEveryJobWaits() {
        assertThat(Placer.place(new Demand(1, true), List.of())).isEqualTo(new PlacementDecision.Wait("no agent is registered"));
    }

    private static HostShare onGpus(String node, Integer... gpus) {
        return new HostShare(node, List.of(gpus), 0, 0, gpus.length);
    }

    private static PlacementDecision placed(AgentPlacement placement) {
        return new PlacementDecision.Placed(placement.node(), placement.tagged());
    }
}

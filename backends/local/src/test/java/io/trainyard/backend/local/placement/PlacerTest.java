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
        tight.take(AgentPlacement.onGpus("tight", List.of(0, 1, 2, 3, 4, 5)));

        PlacementDecision twoGpus = Placer.place(new Demand(2, true), List.of(roomy, tight));
        PlacementDecision threeGpus = Placer.place(new Demand(3, true), List.of(roomy, tight));

        assertThat(twoGpus).isEqualTo(placed(AgentPlacement.onGpus("tight", List.of(6, 7))));
        assertThat(threeGpus).isEqualTo(placed(AgentPlacement.onGpus("roomy", List.of(0, 1, 2))));
    }

    @Test
    void aGangThatFitsNowhereNowWaitsAndOneThatFitsNowhereEverNeverRuns() {
        AgentCapacity a = new AgentCapacity("a", List.of(0, 1, 2, 3), 16);
        AgentCapacity b = new AgentCapacity("b", List.of(0, 1, 2, 3), 16);
        a.take(AgentPlacement.onGpus("a", List.of(0, 1)));
        b.take(AgentPlacement.onGpus("b", List.of(0)));

        // 5 free GPUs in all, but no host has 4 free: a gang is never split.
        assertThat(Placer.place(new Demand(4, true), List.of(a, b)))
                .isEqualTo(new PlacementDecision.Wait("needs 4 GPU(s) on one host; the best host, b, has 3 of 4 GPU(s) free"));
        assertThat(Placer.place(new Demand(5, true), List.of(a, b))).isInstanceOf(PlacementDecision.Never.class);
        assertThat(Placer.place(new Demand(5, false), List.of(a, b))).isEqualTo(placed(AgentPlacement.onCpu("a", 5)));
    }

    @Test
    void cpuHostsRunAnyJobThatDoesNotInsistOnGpusOnceTheyAreFreeEnough() {
        AgentCapacity host = new AgentCapacity("cpu", List.of(), 2);

        assertThat(Placer.place(new Demand(8, false), List.of(host))).isEqualTo(placed(AgentPlacement.onCpu("cpu", 2)));
        host.take(AgentPlacement.onCpu("cpu", 1));
        assertThat(Placer.place(new Demand(8, false), List.of(host)))
                .isEqualTo(new PlacementDecision.Wait("needs 2 CPU slot(s) on one host; the best host, cpu, has 1 of 2 CPU slot(s) free"));
        assertThat(Placer.place(new Demand(1, false), List.of(host))).isEqualTo(placed(AgentPlacement.onCpu("cpu", 1)));
        assertThat(Placer.place(new Demand(1, true), List.of(host))).isInstanceOf(PlacementDecision.Never.class);
    }

    @Test
    void withNoAgentRegisteredEveryJobWaits() {
        assertThat(Placer.place(new Demand(1, true), List.of())).isEqualTo(new PlacementDecision.Wait("no agent is registered"));
    }

    private static PlacementDecision placed(AgentPlacement placement) {
        return new PlacementDecision.Placed(placement.node(), placement.tagged());
    }
}

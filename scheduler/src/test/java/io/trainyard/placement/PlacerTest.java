package io.trainyard.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class PlacerTest {

    @Test
    void allWorkersGoToOneAgentAndTheTightestFitWins() {
        AgentCapacity roomy = new AgentCapacity("roomy", List.of(0, 1, 2, 3, 4, 5, 6, 7), 32);
        AgentCapacity tight = new AgentCapacity("tight", List.of(0, 1, 2, 3, 4, 5, 6, 7), 32);
        tight.take(Placement.onGpus("tight", List.of(0, 1, 2, 3, 4, 5)));

        PlacementDecision twoGpus = Placer.place(new Demand(2, true), List.of(roomy, tight));
        PlacementDecision threeGpus = Placer.place(new Demand(3, true), List.of(roomy, tight));

        assertThat(twoGpus).isEqualTo(new PlacementDecision.OnAgent(Placement.onGpus("tight", List.of(6, 7))));
        assertThat(threeGpus).isEqualTo(new PlacementDecision.OnAgent(Placement.onGpus("roomy", List.of(0, 1, 2))));
    }

    @Test
    void aGangThatFitsNowhereNowWaitsAndOneThatFitsNowhereEverNeverRuns() {
        AgentCapacity a = new AgentCapacity("a", List.of(0, 1, 2, 3), 16);
        AgentCapacity b = new AgentCapacity("b", List.of(0, 1, 2, 3), 16);
        a.take(Placement.onGpus("a", List.of(0, 1)));
        b.take(Placement.onGpus("b", List.of(0)));

        // 5 free GPUs in all, but no host has 4 free: a gang is never split.
        assertThat(Placer.place(new Demand(4, true), List.of(a, b))).isEqualTo(new PlacementDecision.Wait());
        assertThat(Placer.place(new Demand(5, true), List.of(a, b))).isInstanceOf(PlacementDecision.Never.class);
        assertThat(Placer.place(new Demand(5, false), List.of(a, b)))
                .isEqualTo(new PlacementDecision.OnAgent(Placement.onCpu("a", 5)));
    }

    @Test
    void cpuHostsRunAnyJobThatDoesNotInsistOnGpusOnceTheyAreFreeEnough() {
        AgentCapacity host = new AgentCapacity("cpu", List.of(), 2);

        assertThat(Placer.place(new Demand(8, false), List.of(host)))
                .isEqualTo(new PlacementDecision.OnAgent(Placement.onCpu("cpu", 2)));
        host.take(Placement.onCpu("cpu", 1));
        assertThat(Placer.place(new Demand(8, false), List.of(host))).isEqualTo(new PlacementDecision.Wait());
        assertThat(Placer.place(new Demand(1, false), List.of(host)))
                .isEqualTo(new PlacementDecision.OnAgent(Placement.onCpu("cpu", 1)));
        assertThat(Placer.place(new Demand(1, true), List.of(host))).isInstanceOf(PlacementDecision.Never.class);
    }
}

package io.trainyard.backend.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import io.trainyard.agent.Gpu;
import io.trainyard.dispatch.Reservation;
import org.junit.jupiter.api.Test;

class HostSlotsTest {

    @Test
    void gpuHostsGiveEachWorkerAGpuAndCpuHostsGiveSlots() {
        HostSlots gpuHost = new HostSlots("g", List.of(new Gpu(0, "H100", 80_000), new Gpu(1, "H100", 80_000)), 4);
        assertThat(gpuHost.reserve(UUID.randomUUID(), 2, true)).isInstanceOf(Reservation.Placed.class);
        assertThat(gpuHost.reserve(UUID.randomUUID(), 1, true)).isInstanceOf(Reservation.Wait.class);
        assertThat(gpuHost.reserve(UUID.randomUUID(), 3, true)).isInstanceOf(Reservation.Never.class);
        assertThat(gpuHost.reserve(UUID.randomUUID(), 3, false)).isInstanceOf(Reservation.Placed.class);

        HostSlots cpuHost = new HostSlots("c", List.of(), 2);
        UUID big = UUID.randomUUID();
        assertThat(cpuHost.reserve(big, 8, false)).isInstanceOf(Reservation.Placed.class);
        assertThat(cpuHost.reserve(UUID.randomUUID(), 1, false)).isInstanceOf(Reservation.Wait.class);
        cpuHost.release(big);
        assertThat(cpuHost.reserve(UUID.randomUUID(), 1, false)).isInstanceOf(Reservation.Placed.class);
        assertThat(cpuHost.reserve(UUID.randomUUID(), 1, true)).isInstanceOf(Reservation.Never.class);
    }

    @Test
    void readsNvidiaSmiOutput() {
        assertThat(GpuDiscovery.parse("0, NVIDIA H100 80GB HBM3, 81559\n1, NVIDIA H100 80GB HBM3, 81559\n"))
                .containsExactly(new Gpu(0, "NVIDIA H100 80GB HBM3", 81559), new Gpu(1, "NVIDIA H100 80GB HBM3", 81559));
    }
}

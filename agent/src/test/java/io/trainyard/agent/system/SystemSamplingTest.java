package io.trainyard.agent.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.trainyard.protocol.GpuSample;
import org.junit.jupiter.api.Test;

/** Reading what nvidia-smi and /proc print, as the real ones print it. */
class SystemSamplingTest {

    @Test
    void aMeasureTheBoardDoesNotReportIsNullAndAShortLineIsSkipped() {
        List<GpuSample> samples = HostMonitor.parse(NvidiaSmi.rows("""
                0, 7, 11468, 71.52, 34
                1, 100, 80000, [N/A], 61
                2, [Not Supported], 12, 3, 4
                3, 0, 0
                """));

        assertThat(samples).containsExactly(new GpuSample(0, 7.0, 11_468L, 71.52, 34.0), new GpuSample(1, 100.0, 80_000L, null, 61.0),
                new GpuSample(2, null, 12L, 3.0, 4.0));
    }

    @Test
    void theCpuTimeOfAProcessWhoseNameHasSpacesAndParentheses() {
        String stat = "4242 (python3 (worker 1)) R 1 4242 4242 0 -1 4194560 1543 0 0 0 250 75 0 0 20 0 1 0 123 1000 100 0";

        assertThat(ProcessUsage.cpuSeconds(stat)).isEqualTo(3.25);
    }

    @Test
    void residentMemoryAndStorageIo() {
        assertThat(ProcessUsage.rssBytes(List.of("Name:\tpython3", "VmRSS:\t  204800 kB", "Threads:\t4"))).isEqualTo(204_800L * 1024);
        assertThat(ProcessUsage.rssBytes(List.of("Name:\tkworker"))).isZero();
        assertThat(ProcessUsage.io(List.of("rchar: 99", "read_bytes: 4096", "write_bytes: 8192", "cancelled_write_bytes: 0")))
                .containsExactly(4096, 8192);
    }

    @Test
    void thisProcessUsesCpuAndMemory() {
        ProcessUsage usage = ProcessUsage.of(ProcessHandle.current());

        assertThat(usage.cpuSeconds()).isPositive();
        assertThat(usage.rssBytes()).isGreaterThan(1L << 20);
    }
}

package io.trainyard.agent.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;

import io.trainyard.protocol.GpuSample;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    /**
     * Heartbeats carry a GPU reading only once (every 2 s, samples every 5 s): each new reading is numbered, and GPUs
     * that stop answering make one empty reading, not one per try.
     */
    @Test
    void eachReadingIsNumberedAndGpusThatStopAnsweringAreOneEmptyReading(@TempDir Path folder) throws Exception {
        Path standIn = folder.resolve("nvidia-smi");
        Files.writeString(standIn, "#!/bin/sh\necho '0, 42, 1024, 70.5, 33'\n");
        Files.setPosixFilePermissions(standIn, PosixFilePermissions.fromString("rwx------"));
        HostMonitor monitor = new HostMonitor(new NvidiaSmi(standIn.toString()), Duration.ofMillis(20));
        monitor.start();
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> monitor.lastReading().number() >= 3);
            assertThat(monitor.lastReading().gpus()).singleElement().satisfies(gpu -> assertThat(gpu.utilizationPercent()).isEqualTo(42.0));

            Files.writeString(standIn, "#!/bin/sh\necho 'NVIDIA-SMI has failed'\nexit 9\n");
            await().atMost(Duration.ofSeconds(10)).until(() -> monitor.lastReading().gpus().isEmpty());
            long empty = monitor.lastReading().number();
            Thread.sleep(200);
            assertThat(monitor.lastReading().number()).isEqualTo(empty);
        } finally {
            monitor.stop();
        }
    }
}

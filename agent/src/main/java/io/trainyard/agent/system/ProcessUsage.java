package io.trainyard.agent.system;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * What a process and everything it forked have used so far, from {@code /proc}: CPU time, resident memory, and
 * bytes read from and written to storage. A process that ended between listing and reading counts for nothing; a
 * file the agent may not read (another user's {@code io} without root) leaves its measure out.
 *
 * @param cpuSeconds user and system time of the processes still alive (an ended child's time is lost, not added)
 * @param readBytes null when no process' {@code io} could be read
 */
public record ProcessUsage(double cpuSeconds, long rssBytes, Long readBytes, Long writeBytes) {

    /** Linux reports CPU time in USER_HZ, 100 on every architecture it runs on. */
    private static final double TICKS_PER_SECOND = 100;
    private static final Path PROC = Path.of("/proc");

    /** The usage of {@code root} and its descendants now (zero once they have ended). */
    public static ProcessUsage of(ProcessHandle root) {
        double cpu = 0;
        long rss = 0;
        Long read = null;
        Long written = null;
        List<Long> pids = Stream.concat(Stream.of(root), root.descendants()).map(ProcessHandle::pid).toList();
        for (long pid : pids) {
            Path folder = PROC.resolve(Long.toString(pid));
            try {
                cpu += cpuSeconds(Files.readString(folder.resolve("stat")));
                rss += rssBytes(Files.readAllLines(folder.resolve("status")));
            } catch (IOException | RuntimeException e) {
                continue;
            }
            try {
                long[] io = io(Files.readAllLines(folder.resolve("io")));
                read = (read == null ? 0 : read) + io[0];
                written = (written == null ? 0 : written) + io[1];
            } catch (IOException | RuntimeException e) {
                // Not readable by this agent: left out.
            }
        }
        return new ProcessUsage(cpu, rss, read, written);
    }

    /** utime + stime of a {@code /proc/PID/stat} line; the command name in parentheses may hold spaces. */
    static double cpuSeconds(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / TICKS_PER_SECOND;
    }

    /** {@code VmRSS:   1234 kB} of {@code /proc/PID/status}; 0 for a zombie or a kernel thread, which have none. */
    static long rssBytes(List<String> status) {
        for (String line : status) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.substring("VmRSS:".length()).replace("kB", "").strip()) * 1024;
            }
        }
        return 0;
    }

    /** read_bytes and write_bytes of {@code /proc/PID/io}: what reached or came from storage. */
    static long[] io(List<String> lines) {
        long[] io = new long[2];
        for (String line : lines) {
            if (line.startsWith("read_bytes:")) {
                io[0] = Long.parseLong(line.substring("read_bytes:".length()).strip());
            } else if (line.startsWith("write_bytes:")) {
                io[1] = Long.parseLong(line.substring("write_bytes:".length()).strip());
            }
        }
        return io;
    }
}

package io.trainyard.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The host's process table, as Linux shows it in /proc. {@link ProcessHandle#isAlive()} counts a zombie as alive,
 * and a trainer orphaned by a killed server or agent stays a zombie until whatever reaps orphans here gets to it.
 */
public final class ProcessTable {

    private ProcessTable() {
    }

    /**
     * The running processes whose command line contains {@code text}, by their pids on this host: how a test finds
     * a trainer's processes, which live in a PID namespace of their own and cannot tell their host pids.
     */
    public static List<Long> withCommandLineContaining(String text) {
        try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
            return processes.filter(process -> process.getFileName().toString().chars().allMatch(Character::isDigit))
                    .filter(process -> commandLine(process).contains(text))
                    .map(process -> Long.parseLong(process.getFileName().toString()))
                    .filter(ProcessTable::isRunning)
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String commandLine(Path process) {
        try {
            return Files.readString(process.resolve("cmdline")).replace('\0', ' ');
        } catch (IOException e) {
            return ""; // gone meanwhile
        }
    }

    /** Whether the process exists and has not exited (a zombie has exited: it only awaits its reaper). */
    public static boolean isRunning(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // "pid (comm) STATE ...": the state follows the command name's closing parenthesis.
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (NoSuchFileException e) {
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

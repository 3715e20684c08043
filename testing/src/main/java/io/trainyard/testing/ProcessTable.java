package io.trainyard.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The host's process table, as Linux shows it in /proc. {@link ProcessHandle#isAlive()} counts a zombie as alive,
 * and a trainer orphaned by a killed server or agent stays a zombie until whatever reaps orphans here gets to it.
 */
public final class ProcessTable {

    private ProcessTable() {
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

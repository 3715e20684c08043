package io.trainyard.agent.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The moment after which this agent's trainers must be gone, in a file every supervisor of the agent reads.
 *
 * <p>The agent fences itself (kills its runs) when it has heard from no server for its lease less one heartbeat
 * interval. That only works while the agent lives: an agent killed with its server (the server's own agent, on
 * SIGKILL or an out-of-memory kill) or on its own leaves supervised trainers behind, and another host may take
 * their jobs a lease later. So the agent writes its fence deadline here, and each supervisor kills its trainer
 * once the deadline has passed; a live agent keeps pushing it out, and a restarted one that re-attaches in
 * time does too.
 *
 * <p>The deadline is in the host's {@code CLOCK_MONOTONIC} nanoseconds, which Java's {@link System#nanoTime()}
 * and Python's {@code time.monotonic_ns()} both read on Linux: a wall-clock step cannot move it.
 */
public final class FenceDeadline {

    private static final Logger log = LoggerFactory.getLogger(FenceDeadline.class);
    /** A deadline that moved less than this is not written again; supervisors look five times a second. */
    private static final long REWRITE_NANOS = 100_000_000;

    private final Path file;
    /** The deadline last written, or null when the file holds none of this agent's. */
    private Long written;

    FenceDeadline(Path file) {
        this.file = file;
    }

    public Path file() {
        return file;
    }

    /** Publishes {@code deadlineNanos} (on {@link System#nanoTime()}'s clock) unless it barely moved. */
    public synchronized void moveTo(long deadlineNanos) {
        if (written != null && Math.abs(deadlineNanos - written) < REWRITE_NANOS) {
            return;
        }
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            // No fsync: a host that crashes takes its trainers with it.
            Files.writeString(temporary, Long.toString(deadlineNanos), StandardCharsets.US_ASCII);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            written = deadlineNanos;
        } catch (IOException e) {
            log.warn("Could not write the fence deadline {}: {}", file, e.toString());
        }
    }

    /** No lease, no fence: supervisors let their trainers run for as long as they take. */
    public synchronized void remove() {
        try {
            Files.deleteIfExists(file);
            written = null;
        } catch (IOException e) {
            log.warn("Could not remove the fence deadline {}: {}", file, e.toString());
        }
    }
}

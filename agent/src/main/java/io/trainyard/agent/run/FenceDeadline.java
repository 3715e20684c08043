package io.trainyard.agent.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

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
 *
 * <p>The deadline may have an <em>owner</em>, a process (its pid and its start time, so that a reused pid is not
 * taken for it): the server whose own agent this is, when that server runs on its embedded database. Nobody but a
 * server on this data directory can then declare the agent lost, so while the owner is gone (killed, restarting)
 * a supervisor lets its trainer run past the deadline; a server that starts on the data directory
 * {@linkplain #holdAtStart takes the file over} before it has its database, and so before it could declare anyone
 * lost. The file reads {@code DEADLINE} or {@code DEADLINE PID START_TIME} (field 22 of {@code /proc/PID/stat}).
 */
public final class FenceDeadline {

    private static final Logger log = LoggerFactory.getLogger(FenceDeadline.class);
    /** A deadline that moved less than this is not written again; supervisors look five times a second. */
    private static final long REWRITE_NANOS = 100_000_000;
    private static final String FILE_NAME = "fence-deadline";
    private static final long FENCE_HOLD_MILLIS = 200;
    /** Deadlines taken over at start and held until released, by data directory. */
    private static final Map<Path, StartHold> HELD = new ConcurrentHashMap<>();

    private final Path file;
    /** The deadline last written, or null when the file holds none of this agent's. */
    private Long written;
    /** " PID START_TIME" of the owner, or empty for none. */
    private String owner = "";

    FenceDeadline(Path file) {
        this.file = file;
    }

    /** The fence deadline of the agent on this data directory. */
    static FenceDeadline in(Path dataDir) {
        return new FenceDeadline(dataDir.resolve(FILE_NAME));
    }

    /**
     * For a server on its embedded database, before it starts that database: if an agent on {@code dataDir} left a
     * fence deadline, this process takes it over (becomes its owner) and holds it at {@code lease} from now, pushed
     * out five times a second, until {@link #releaseStartHold} (the server is about to judge leases): from then it
     * runs out unless the server's own agent re-attaches the trainers and pushes it on. The trainers run on however
     * long the server takes to start, and are gone before this server could declare their agent lost.
     */
    public static void holdAtStart(Path dataDir, Duration lease) {
        FenceDeadline fence = in(dataDir);
        if (!Files.exists(fence.file)) {
            return;
        }
        fence.ownByThisProcess();
        fence.moveTo(System.nanoTime() + lease.toNanos());
        log.info("Took over the fence deadline {}: held {} ms ahead until this server judges leases", fence.file, lease.toMillis());
        Thread holder = Thread.ofPlatform().daemon().name("fence-start-hold").unstarted(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    Thread.sleep(FENCE_HOLD_MILLIS);
                    fence.moveTo(System.nanoTime() + lease.toNanos());
                }
            } catch (InterruptedException e) {
                // released
            }
        });
        HELD.put(key(dataDir), new StartHold(fence, lease, holder));
        holder.start();
    }

    /**
     * Stops holding a deadline taken over at start, after moving it to one lease (as held) from now; called before
     * this server starts judging leases, which it does only a full lease later. Nothing when none is held.
     */
    public static void releaseStartHold(Path dataDir) {
        StartHold hold = HELD.remove(key(dataDir));
        if (hold != null) {
            hold.holder().interrupt();
            try {
                hold.holder().join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            hold.fence().moveTo(System.nanoTime() + hold.lease().toNanos());
            log.info("Released the fence deadline {}: {} ms from now unless this host's agent re-attaches its runs",
                    hold.fence().file, hold.lease().toMillis());
        }
    }

    private static Path key(Path dataDir) {
        return dataDir.toAbsolutePath().normalize();
    }

    private record StartHold(FenceDeadline fence, Duration lease, Thread holder) {
    }

    /** From now on, the deadlines written are owned by this process (see the class comment). */
    public synchronized void ownByThisProcess() {
        owner = " " + ProcessHandle.current().pid() + " " + startTimeOfThisProcess();
        written = null;
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
            Files.writeString(temporary, deadlineNanos + owner, StandardCharsets.US_ASCII);
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

    /** This process's start time, in clock ticks after boot: field 22 of {@code /proc/self/stat}. */
    private static String startTimeOfThisProcess() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"), StandardCharsets.US_ASCII);
            // The fields after the command's name, which is in parentheses and may hold spaces, start with field 3.
            return stat.substring(stat.lastIndexOf(')') + 2).split(" ")[22 - 3];
        } catch (IOException e) {
            throw new IllegalStateException("cannot read /proc/self/stat", e);
        }
    }
}

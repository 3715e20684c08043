package io.trainyard.backend.local.agent;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.trainyard.agent.StaleAgentException;
import io.trainyard.agent.protocol.LogAck;
import io.trainyard.agent.protocol.LogBatch;
import io.trainyard.logs.PendingLine;

/**
 * Ships the lines of one run's output files to the server in numbered batches, one at a time, each resent
 * until acknowledged (the server stores a batch number once, so a resend is harmless). While the server is
 * away the lines wait here up to {@value #MAX_BUFFERED_LINES}; then the file tailers wait too, and the rest
 * waits on disk in the output files, bounded by the agent's log backlog (see {@link FileTailer}).
 */
final class LogShipper implements LineSink {

    static final int MAX_BUFFERED_LINES = 200_000;
    static final int MAX_LINES_PER_BATCH = 8_000;
    /** Keeps a batch well under the server's request size limit (4 MiB) however long the lines are. */
    static final int MAX_CHARS_PER_BATCH = 500_000;
    private static final long IDLE_WAIT_MILLIS = 50;

    private final ServerConnection server;
    private final UUID jobId;
    private final int attempt;
    private final long epoch;
    private final ArrayDeque<PendingLine> buffer = new ArrayDeque<>();
    private long nextBatch;
    private boolean quotaReached;
    private boolean finishing;
    private Thread thread;

    /** @param lastBatch the number of the last batch the server stored for this attempt (0: none) */
    LogShipper(ServerConnection server, UUID jobId, int attempt, long epoch, long lastBatch) {
        this.server = server;
        this.jobId = jobId;
        this.attempt = attempt;
        this.epoch = epoch;
        this.nextBatch = lastBatch + 1;
    }

    /**
     * Starts shipping on its own thread.
     *
     * @param onStale called if the server refuses a batch as stale: the run no longer belongs to this agent
     */
    void start(Runnable onStale) {
        thread = Thread.ofVirtual().name("ship-" + jobId).start(() -> {
            try {
                shipUntilFinished();
            } catch (StaleAgentException e) {
                onStale.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /** Queues lines, waiting while the buffer is full; lines past the attempt's log quota are dropped. */
    @Override
    public synchronized void addAll(List<PendingLine> lines) throws InterruptedException {
        while (buffer.size() >= MAX_BUFFERED_LINES) {
            wait();
        }
        if (!quotaReached) {
            buffer.addAll(lines);
            notifyAll();
        }
    }

    /** Waits until every queued line is acknowledged, then stops. */
    void finish() throws InterruptedException {
        synchronized (this) {
            finishing = true;
            notifyAll();
        }
        thread.join();
    }

    /** Stops without shipping the rest: the agent is stopping, and its successor resumes from the server's positions. */
    void abandon() {
        thread.interrupt();
    }

    private void shipUntilFinished() throws InterruptedException {
        while (true) {
            List<PendingLine> lines = nextLines();
            if (lines == null) {
                return;
            }
            Map<String, Long> positions = new HashMap<>();
            List<LogBatch.Line> batchLines = new ArrayList<>(lines.size());
            for (PendingLine line : lines) {
                batchLines.add(new LogBatch.Line(line.time(), line.stream(), line.rank(), line.text()));
                positions.put(line.source(), line.offsetAfter());
            }
            LogBatch batch = new LogBatch(epoch, nextBatch, batchLines, positions);
            LogAck ack = ServerConnection.untilDelivered("log batch " + batch.batch() + " of job " + jobId,
                    () -> server.logs(jobId, attempt, batch));
            shipped(lines.size(), ack.quotaReached());
        }
    }

    /** The next lines to ship, waiting for some; null once finishing and everything is shipped. */
    private synchronized List<PendingLine> nextLines() throws InterruptedException {
        while (buffer.isEmpty()) {
            if (finishing) {
                return null;
            }
            wait(IDLE_WAIT_MILLIS);
        }
        List<PendingLine> lines = new ArrayList<>(Math.min(buffer.size(), MAX_LINES_PER_BATCH));
        long chars = 0;
        for (PendingLine line : buffer) {
            if (lines.size() == MAX_LINES_PER_BATCH || (chars > 0 && chars + line.text().length() > MAX_CHARS_PER_BATCH)) {
                break;
            }
            lines.add(line);
            chars += line.text().length();
        }
        return lines;
    }

    private synchronized void shipped(int count, boolean quotaNowReached) {
        for (int i = 0; i < count; i++) {
            buffer.removeFirst();
        }
        nextBatch++;
        if (quotaNowReached) {
            quotaReached = true;
            buffer.clear();
        }
        notifyAll();
    }
}

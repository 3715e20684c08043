package io.trainyard.agent.logs;

import java.util.UUID;

import io.trainyard.agent.connection.Redelivery;
import io.trainyard.agent.connection.ServerConnection;
import io.trainyard.agent.connection.ShippingThread;
import io.trainyard.protocol.LineQueue;
import io.trainyard.protocol.LogAck;
import io.trainyard.protocol.LogBatch;

/**
 * Ships the lines of one run's output files to the server in numbered batches, one at a time, each resent
 * until acknowledged (the server stores a batch number once, so a resend is harmless). While the server is
 * away the lines wait in the queue; when it is full the file tailers wait too, and the rest waits on disk in
 * the output files, bounded by the agent's log backlog (see {@link FileTailer}).
 */
public final class LogShipper {

    private static final long IDLE_WAIT_MILLIS = 50;

    private final ServerConnection server;
    private final UUID jobId;
    private final int attempt;
    private final long epoch;
    private final LineQueue queue = new LineQueue();
    private long nextBatch;
    private volatile boolean finishing;
    private Thread thread;

    /** @param lastBatch the number of the last batch the server stored for this attempt (0: none) */
    public LogShipper(ServerConnection server, UUID jobId, int attempt, long epoch, long lastBatch) {
        this.server = server;
        this.jobId = jobId;
        this.attempt = attempt;
        this.epoch = epoch;
        this.nextBatch = lastBatch + 1;
    }

    /** Where the tailers put the lines to ship. */
    public LineSink sink() {
        return queue::addAll;
    }

    /**
     * Starts shipping on its own thread.
     *
     * @param onStale called if the server refuses a batch as stale: the run no longer belongs to this agent
     */
    public void start(Runnable onStale) {
        thread = ShippingThread.start("ship-" + jobId, this::shipUntilFinished, onStale);
    }

    /** Waits until every queued line is acknowledged, then stops. */
    public void finish() throws InterruptedException {
        finishing = true;
        queue.wakeTakers();
        thread.join();
    }

    /** Stops without shipping the rest: the agent is stopping, and its successor resumes from the server's positions. */
    public void abandon() {
        thread.interrupt();
    }

    private void shipUntilFinished() throws InterruptedException {
        while (true) {
            // Read before taking: a finish that comes after this read still finds the last lines queued.
            boolean finished = finishing;
            LineQueue.Batch lines = queue.nextBatch(IDLE_WAIT_MILLIS);
            if (lines.isEmpty()) {
                if (finished) {
                    return;
                }
                continue;
            }
            LogBatch batch = new LogBatch(epoch, nextBatch, lines.lines(), lines.positions());
            LogAck ack = Redelivery.untilDelivered("log batch " + batch.batch() + " of job " + jobId,
                    () -> server.logs(jobId, attempt, batch));
            queue.remove(lines.lines().size());
            nextBatch++;
            if (ack.quotaReached()) {
                queue.dropAll();
            }
        }
    }
}

package io.trainyard.agent.logs;

import java.util.ArrayDeque;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.trainyard.agent.connection.ServerConnection;
import io.trainyard.agent.connection.ShippingThread;
import io.trainyard.protocol.LineQueue;
import io.trainyard.protocol.LogAck;
import io.trainyard.protocol.LogBatch;

/**
 * Ships the lines of one run's output files to the server in numbered batches, each resent until acknowledged
 * (the server stores a batch number once, so a resend is harmless). Up to {@code batchesInFlight} batches are on
 * their way at once, so the server reads one while it commits the one before; the server stores them in their
 * order, and lines leave the queue in that order as their batches are acknowledged. While the server is away the
 * lines wait in the queue; when it is full the file tailers wait too, and the rest waits on disk in the output
 * files, bounded by the agent's log backlog (see {@link FileTailer}).
 */
public final class LogShipper {

    private static final long IDLE_WAIT_MILLIS = 50;
    /** How long a shipper with room for another batch waits for lines before it looks at its acknowledgements. */
    private static final long LINES_WAIT_MILLIS = 2;

    /** Where batches go: returns once the batch is stored (or was before), retrying meanwhile. */
    @FunctionalInterface
    public interface Delivery {
        LogAck deliver(LogBatch batch) throws InterruptedException;
    }

    /** Delivery to the run's server, retried with backoff while it is away. */
    public static Delivery toServer(ServerConnection server, UUID jobId, int attempt) {
        return batch -> ServerConnection.untilDelivered("log batch " + batch.batch() + " of job " + jobId,
                () -> server.logs(jobId, attempt, batch));
    }

    /** A batch on its way: how many of the queue's first lines it holds, and the server's answer to come. */
    private record InFlight(int lines, CompletableFuture<LogAck> ack) {
    }

    private final Delivery delivery;
    private final UUID jobId;
    private final long epoch;
    private final int batchesInFlight;
    private final LineQueue queue = new LineQueue();
    private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();
    private long nextBatch;
    /** The queue's first lines that are in batches on their way. */
    private int linesInFlight;
    private volatile boolean finishing;
    private Thread thread;

    /**
     * @param lastBatch the number of the last batch the server stored for this attempt (0: none)
     * @param batchesInFlight how many batches may be on their way at once (the server's registration says)
     */
    public LogShipper(Delivery delivery, UUID jobId, long epoch, long lastBatch, int batchesInFlight) {
        this.delivery = delivery;
        this.jobId = jobId;
        this.epoch = epoch;
        this.nextBatch = lastBatch + 1;
        this.batchesInFlight = batchesInFlight;
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
        // Each batch is delivered on a virtual thread of its own; closing waits for those still on their way.
        try (ExecutorService senders = Executors.newVirtualThreadPerTaskExecutor()) {
            try {
                ship(senders);
            } finally {
                inFlight.forEach(batch -> batch.ack().cancel(true));
                senders.shutdownNow();
            }
        }
    }

    private void ship(ExecutorService senders) throws InterruptedException {
        while (true) {
            // Read before taking: a finish that comes after this read still finds the last lines queued.
            boolean finished = finishing;
            if (inFlight.size() == batchesInFlight) {
                acknowledged(Long.MAX_VALUE);
                continue;
            }
            LineQueue.Batch lines = queue.nextBatch(linesInFlight, inFlight.isEmpty() ? IDLE_WAIT_MILLIS : LINES_WAIT_MILLIS);
            if (!lines.isEmpty()) {
                LogBatch batch = new LogBatch(epoch, nextBatch++, lines.lines(), lines.positions());
                inFlight.addLast(new InFlight(lines.lines().size(), CompletableFuture.supplyAsync(() -> deliver(batch), senders)));
                linesInFlight += lines.lines().size();
            } else if (!inFlight.isEmpty()) {
                acknowledged(0);
            } else if (finished) {
                return;
            }
        }
    }

    /**
     * Waits up to {@code waitMillis} for the oldest batch on its way; once it is acknowledged, its lines leave the
     * queue.
     */
    private void acknowledged(long waitMillis) throws InterruptedException {
        InFlight oldest = inFlight.getFirst();
        LogAck ack;
        try {
            ack = oldest.ack().get(waitMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof CancellationException) {
                throw new InterruptedException("stopped while delivering a log batch of job " + jobId);
            }
            throw e.getCause() instanceof RuntimeException failure ? failure : new IllegalStateException(e.getCause());
        }
        inFlight.removeFirst();
        queue.remove(oldest.lines());
        linesInFlight -= oldest.lines();
        if (ack.quotaReached()) {
            // The server stores no more lines of this attempt: drop them, and those of batches still on their way.
            queue.dropAll();
            linesInFlight = 0;
            inFlight.clear();
        }
    }

    private LogAck deliver(LogBatch batch) {
        try {
            return delivery.deliver(batch);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while delivering log batch " + batch.batch());
        }
    }
}

package io.trainyard.agent.metrics;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.trainyard.agent.connection.Redelivery;
import io.trainyard.agent.connection.ServerConnection;
import io.trainyard.agent.connection.ShippingThread;
import io.trainyard.protocol.MetricBatch;
import io.trainyard.protocol.ScalarSeriesBuilder;
import io.trainyard.tfevents.EventFileReader;
import io.trainyard.tfevents.Scalar;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the TensorBoard event files of one run and ships their scalar points in numbered {@link MetricBatch}es,
 * one at a time, each delivered before the next is read: by an agent to the server (resent until acknowledged), or
 * by the server itself into its store for a job whose files it reads on a shared filesystem (Slurm's). Reading
 * resumes from the positions stored with the last delivered batch, and each batch ends on a record boundary, so a
 * restart of either side neither loses nor repeats a point. While a batch cannot be delivered nothing more is
 * read: the points wait in the event files.
 */
public final class MetricShipper {

    private static final Logger log = LoggerFactory.getLogger(MetricShipper.class);
    private static final long POLL_MILLIS = 250;
    /** Half the batch limit: a read stops after the record that reaches it, and a record may hold several points. */
    private static final int POINTS_PER_BATCH = MetricBatch.MAX_POINTS_PER_BATCH / 2;

    private final Delivery delivery;
    private final UUID jobId;
    private final long epoch;
    private final Path folder;
    private final Map<String, Long> positions;
    private long nextBatch;
    private volatile boolean finishing;
    private Thread thread;

    /** Where the batches go. */
    @FunctionalInterface
    public interface Delivery {

        /** Returns once the batch is stored with its positions, retrying meanwhile. */
        void deliver(MetricBatch batch) throws InterruptedException;
    }

    /** Delivery to the server over the agent protocol, each batch resent until acknowledged. */
    public static Delivery toServer(ServerConnection server, UUID jobId, int attempt) {
        return batch -> Redelivery.untilDelivered("metric batch " + batch.batch() + " of job " + jobId,
                () -> server.metrics(jobId, attempt, batch));
    }

    /**
     * @param folder the run's TensorBoard folder (its {@code tensorboardLogsUri})
     * @param positions where reading each event file resumes, as the server stored them
     * @param lastBatch the number of the last batch the server stored for this attempt (0: none)
     */
    public MetricShipper(Delivery delivery, UUID jobId, long epoch, Path folder, Map<String, Long> positions, long lastBatch) {
        this.delivery = delivery;
        this.jobId = jobId;
        this.epoch = epoch;
        this.folder = folder;
        this.positions = new HashMap<>(positions);
        this.nextBatch = lastBatch + 1;
    }

    /**
     * Starts following on its own thread.
     *
     * @param onStale called if the server refuses a batch as stale: the run no longer belongs to this agent
     */
    public void start(Runnable onStale) {
        thread = ShippingThread.start("metrics-" + jobId, this::shipUntilFinished, onStale);
    }

    /** The trainer has exited: ships what its event files hold (skipping a record it left unfinished), then stops. */
    public void finish() throws InterruptedException {
        finishing = true;
        thread.join();
    }

    /** Stops without shipping the rest: the agent is stopping, and its successor resumes from the server's positions. */
    public void abandon() {
        thread.interrupt();
    }

    private void shipUntilFinished() throws InterruptedException {
        while (true) {
            // Read before reading the files: once finishing is seen, the files are complete.
            boolean complete = finishing;
            MetricBatch batch = read(complete);
            if (batch != null) {
                delivery.deliver(batch);
                positions.putAll(batch.positions());
                nextBatch++;
            } else if (complete) {
                return;
            } else {
                Thread.sleep(POLL_MILLIS);
            }
        }
    }

    /** The next batch: what the event files hold past the acknowledged positions, up to a batch; null if nothing. */
    private MetricBatch read(boolean complete) {
        Map<String, ScalarSeriesBuilder> series = new LinkedHashMap<>();
        Map<String, Long> readTo = new HashMap<>();
        List<String> skipped = new ArrayList<>();
        int points = 0;
        try {
            for (EventFiles.EventFile file : EventFiles.under(folder)) {
                long from = positions.getOrDefault(file.name(), 0L);
                EventFileReader.Read read;
                try (SeekableByteChannel channel = Files.newByteChannel(file.path())) {
                    if (channel.size() <= from) {
                        continue;
                    }
                    read = EventFileReader.read(channel, file.name(), from, POINTS_PER_BATCH - points, complete);
                } catch (NoSuchFileException e) {
                    continue;
                }
                if (read.offsetAfter() == from) {
                    continue;
                }
                for (Scalar scalar : read.scalars()) {
                    series.computeIfAbsent(scalar.tag() + '\u0000' + file.rank(),
                            key -> new ScalarSeriesBuilder(scalar.tag(), file.rank()))
                            .add(scalar.step(), scalar.wallTime(), scalar.value());
                }
                points += read.scalars().size();
                readTo.put(file.name(), read.offsetAfter());
                skipped.addAll(read.skipped());
                if (points >= POINTS_PER_BATCH) {
                    break;
                }
            }
        } catch (IOException e) {
            log.warn("Could not read the event files of job {} in {} ({}); trying again", jobId, folder, e.toString());
            return null;
        }
        if (readTo.isEmpty()) {
            return null;
        }
        return new MetricBatch(epoch, nextBatch, series.values().stream().map(ScalarSeriesBuilder::build).toList(), readTo,
                skipped);
    }
}

package io.trainyard.agent.logs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.trainyard.agent.connection.StaleRunException;
import io.trainyard.protocol.LineQueue;
import io.trainyard.protocol.LogAck;
import io.trainyard.protocol.LogBatch;
import io.trainyard.protocol.LogStream;
import io.trainyard.protocol.OutputLine;
import org.junit.jupiter.api.Test;

class LogShipperTest {

    private static final int LINES = 60_000;

    /**
     * A server as the real one stores batches: each number once, in order, refusing one ahead of its predecessor
     * (the agent sends it again, as it does after a 425). Answers take a random while, so batches overtake.
     */
    private static final class OrderingServer implements LogShipper.Delivery {

        final List<String> stored = new ArrayList<>();
        final AtomicInteger onTheWay = new AtomicInteger();
        final AtomicInteger mostOnTheWay = new AtomicInteger();
        int refusedAsAhead;
        long lastBatch;

        @Override
        public LogAck deliver(LogBatch batch) throws InterruptedException {
            mostOnTheWay.accumulateAndGet(onTheWay.incrementAndGet(), Math::max);
            try {
                while (true) {
                    Thread.sleep(ThreadLocalRandom.current().nextInt(3));
                    synchronized (this) {
                        if (batch.batch() <= lastBatch + 1) {
                            if (batch.batch() == lastBatch + 1) {
                                batch.lines().forEach(line -> stored.add(line.text()));
                                lastBatch++;
                            }
                            return new LogAck(batch.batch(), false);
                        }
                        refusedAsAhead++;
                    }
                }
            } finally {
                onTheWay.decrementAndGet();
            }
        }
    }

    @Test
    void batchesOnTheirWayAtOnceAreStoredInOrderEachLineOnce() throws Exception {
        OrderingServer server = new OrderingServer();
        LogShipper shipper = new LogShipper(server, UUID.randomUUID(), 1, 0, 4);
        shipper.start(() -> { });

        feed(shipper.sink());
        shipper.finish();

        assertThat(server.stored).hasSize(LINES);
        assertThat(server.stored).isEqualTo(expectedLines());
        assertThat(server.mostOnTheWay.get()).isBetween(2, 4);
    }

    @Test
    void aServerThatPredatesOrderedBatchesGetsOneAtATime() throws Exception {
        OrderingServer server = new OrderingServer();
        LogShipper shipper = new LogShipper(server, UUID.randomUUID(), 1, 0, 1);
        shipper.start(() -> { });

        feed(shipper.sink());
        shipper.finish();

        assertThat(server.stored).isEqualTo(expectedLines());
        assertThat(server.mostOnTheWay.get()).isEqualTo(1);
        assertThat(server.refusedAsAhead).isZero();
    }

    @Test
    void aBatchRefusedAsStaleStopsTheShippingAndSaysSo() throws Exception {
        AtomicBoolean told = new AtomicBoolean();
        LogShipper shipper = new LogShipper(batch -> {
            if (batch.batch() >= 3) {
                throw new StaleRunException("job attempt 1 is no longer active here");
            }
            return new LogAck(batch.batch(), false);
        }, UUID.randomUUID(), 1, 0, 4);
        shipper.start(() -> told.set(true));

        feed(shipper.sink());
        shipper.finish();

        assertThat(told).isTrue();
    }

    private static void feed(LineSink sink) throws InterruptedException {
        for (int first = 0; first < LINES; first += 1_000) {
            List<LineQueue.Entry> chunk = new ArrayList<>();
            for (int i = first; i < first + 1_000; i++) {
                chunk.add(new LineQueue.Entry(new OutputLine(i, LogStream.STDOUT, 0, "line " + i), "rank-0.stdout", i + 1L));
            }
            sink.addAll(chunk);
        }
    }

    private static List<String> expectedLines() {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < LINES; i++) {
            lines.add("line " + i);
        }
        return lines;
    }
}

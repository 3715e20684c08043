package io.trainyard.database;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Writes that concurrent requests would each commit alone, committed together. Each caller hands its item over and
 * waits; one writer thread takes every item waiting, writes them all in one transaction and answers each caller once
 * that has committed. PostgreSQL then flushes its log once for the lot, and a request's round trips to the database
 * are shared by the batch: under 16 concurrent clients a batch holds about as many items. There is no timer: while
 * one batch commits the next one gathers, and a lone item is written at once, at the latency of a plain commit.
 *
 * <p>Durability is unchanged: a caller returns only once its item's transaction has committed. When a batch fails,
 * each of its items is written again alone, so that one item's failure (a unique key already taken) fails its own
 * caller only, with its own exception; unless the database cannot be reached, when every caller gets that failure at
 * once rather than after one connection timeout per item.
 *
 * @param <T> what a caller writes
 * @param <R> what the caller gets back, e.g. the stored entity
 */
public final class GroupCommit<T, R> implements AutoCloseable {

    private final int maxBatch;
    private final Function<List<T>, List<R>> writeAll;
    private final BlockingQueue<Pending<T, R>> waiting = new LinkedBlockingQueue<>();
    private final Thread writer;
    private volatile boolean closed;

    private record Pending<T, R>(T item, CompletableFuture<R> result) {
    }

    /**
     * @param name the writer thread's name
     * @param maxBatch the most items one transaction writes
     * @param writeAll writes the items in one transaction and answers a result per item, in their order
     */
    public GroupCommit(String name, int maxBatch, Function<List<T>, List<R>> writeAll) {
        this.maxBatch = maxBatch;
        this.writeAll = writeAll;
        this.writer = Thread.ofPlatform().name(name).daemon().start(this::run);
    }

    /** Writes the item with whatever else is waiting; returns once it is committed, or throws why it was not. */
    public R write(T item) {
        Pending<T, R> pending = new Pending<>(item, new CompletableFuture<>());
        // With close() under one lock: an item is either refused, or handed over before the writer's last look.
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException(writer.getName() + " is closed: the server is stopping");
            }
            waiting.add(pending);
        }
        try {
            // Not interruptible: once handed over, the item may commit whatever the caller's thread is told.
            return pending.result().join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            if (e.getCause() instanceof Error cause) {
                throw cause;
            }
            throw e;
        }
    }

    /** Writes what is still waiting, then stops the writer. */
    @Override
    public void close() throws InterruptedException {
        synchronized (this) {
            closed = true;
        }
        writer.join();
    }

    private void run() {
        List<Pending<T, R>> batch = new ArrayList<>(maxBatch);
        while (!closed || !waiting.isEmpty()) {
            try {
                Pending<T, R> first = waiting.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            waiting.drainTo(batch, maxBatch - 1);
            write(batch);
            batch.clear();
        }
    }

    private void write(List<Pending<T, R>> batch) {
        try {
            List<R> results = writeAll.apply(batch.stream().map(Pending::item).toList());
            for (int i = 0; i < batch.size(); i++) {
                batch.get(i).result().complete(results.get(i));
            }
        } catch (RuntimeException e) {
            if (batch.size() == 1 || DatabaseFailures.isUnreachable(e)) {
                batch.forEach(pending -> pending.result().completeExceptionally(e));
                return;
            }
            for (Pending<T, R> pending : batch) {
                try {
                    pending.result().complete(writeAll.apply(List.of(pending.item())).getFirst());
                } catch (RuntimeException alone) {
                    pending.result().completeExceptionally(alone);
                }
            }
        } catch (Error e) {
            // Every caller gets an answer, and the writer lives on for the next batch.
            batch.forEach(pending -> pending.result().completeExceptionally(e));
        }
    }
}

package io.trainyard.core;

import org.springframework.context.SmartLifecycle;

/**
 * A named platform thread that runs a step over and over while the application runs: the dispatcher, the log
 * writer and the agent reaper are each one. It starts and stops with the application context; a subclass
 * gives the step, which does its own waiting (a sleep, or a wait for a wake-up) and its own error handling.
 * An interrupt ends the loop.
 */
public abstract class BackgroundLoop implements SmartLifecycle {

    private static final long STOP_WAIT_MILLIS = 5_000;

    private final String name;
    private volatile Thread thread;

    protected BackgroundLoop(String name) {
        this.name = name;
    }

    /** One turn of the loop. */
    protected abstract void step() throws InterruptedException;

    /** Runs once when the loop starts, before its first step, on the thread starting the application. */
    protected void beforeFirstStep() {
    }

    @Override
    public final void start() {
        beforeFirstStep();
        // Assigned before it starts: the loop runs only while it is the current thread of this loop.
        Thread started = Thread.ofPlatform().name(name).daemon().unstarted(this::loop);
        thread = started;
        started.start();
    }

    /** Ends the loop and waits briefly for its current turn to finish. */
    @Override
    public final void stop() {
        Thread running = thread;
        thread = null;
        if (running != null) {
            running.interrupt();
            try {
                running.join(STOP_WAIT_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public final boolean isRunning() {
        return thread != null;
    }

    private void loop() {
        while (thread == Thread.currentThread()) {
            try {
                step();
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}

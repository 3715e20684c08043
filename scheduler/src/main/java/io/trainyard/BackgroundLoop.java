package io.trainyard;

/**
 * A named platform thread that runs a step over and over until stopped: the dispatcher, the log writer,
 * the agent reaper and the agent heartbeat are each one. The step does its own waiting (sleep, or a wait
 * for a wake-up) and its own error handling; an interrupt ends the loop.
 */
public final class BackgroundLoop {

    /** One turn of the loop. */
    @FunctionalInterface
    public interface Step {
        void run() throws InterruptedException;
    }

    private static final long STOP_WAIT_MILLIS = 5_000;

    private final String name;
    private final Step step;
    private volatile Thread thread;

    public BackgroundLoop(String name, Step step) {
        this.name = name;
        this.step = step;
    }

    public void start() {
        // Assigned before it starts: the loop runs only while it is the current thread of this loop.
        Thread started = Thread.ofPlatform().name(name).daemon().unstarted(this::loop);
        thread = started;
        started.start();
    }

    /** Ends the loop and waits briefly for its current turn to finish. */
    public void stop() {
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

    public boolean isRunning() {
        return thread != null;
    }

    private void loop() {
        while (thread == Thread.currentThread()) {
            try {
                step.run();
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}

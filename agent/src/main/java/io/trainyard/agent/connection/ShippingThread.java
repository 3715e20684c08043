package io.trainyard.agent.connection;

/**
 * The thread a run's shipper (its log lines, its scalar points) ships on: its own virtual thread, which ends when
 * the shipping is finished, abandoned (interrupted), or refused as stale by the server.
 */
public final class ShippingThread {

    private ShippingThread() {
    }

    /** Ships until finished; each batch is resent until acknowledged. */
    @FunctionalInterface
    public interface Shipping {
        void shipUntilFinished() throws InterruptedException;
    }

    /** @param onStale called if the server refuses a batch as stale: the run no longer belongs to this agent */
    public static Thread start(String name, Shipping shipping, Runnable onStale) {
        return Thread.ofVirtual().name(name).start(() -> {
            try {
                shipping.shipUntilFinished();
            } catch (StaleRunException e) {
                onStale.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }
}

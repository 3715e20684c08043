/**
 * The messages between the server and its agents, as JSON over HTTP (each request carries the agent token):
 * <ol>
 * <li>{@code PUT /agents/{id}} with a {@link Registration}: the answer ({@link Registered}) gives the agent a
 * new epoch and the runs the server believes it has, to re-attach to after a restart;</li>
 * <li>{@code POST /agents/{id}/heartbeat} with a {@link Heartbeat}: renews the lease and waits (long-poll) up
 * to a heartbeat interval for {@link Work}: runs to start and runs to cancel;</li>
 * <li>{@code POST /agents/{id}/runs/{job}/{attempt}/started|logs|ended}: what happens to a run
 * ({@link Started}, {@link LogBatch}, {@link Ended}).</li>
 * </ol>
 * Every message carries the agent's epoch; one from an older epoch is refused with 409 (fencing), and so is a
 * report about an attempt that is no longer the job's current one.
 */
package io.trainyard.agent.protocol;

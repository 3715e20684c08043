/**
 * The messages between the server and its agents, as JSON over HTTP (each request carries the agent's token):
 * <ol>
 * <li>{@code PUT /agents/{id}} with a {@link io.trainyard.protocol.Registration}: the answer
 * ({@link io.trainyard.protocol.Registered}) gives the agent a new epoch and the runs the server believes it
 * has, to re-attach to after a restart;</li>
 * <li>{@code POST /agents/{id}/heartbeat} with a {@link io.trainyard.protocol.Heartbeat}: renews the lease and
 * waits (long-poll) up to a heartbeat interval for {@link io.trainyard.protocol.Work}: runs to start and runs
 * to cancel;</li>
 * <li>{@code POST /agents/{id}/runs/{job}/{attempt}/started|logs|metrics|ended}: what happens to a run
 * ({@link io.trainyard.protocol.Started}, {@link io.trainyard.protocol.LogBatch},
 * {@link io.trainyard.protocol.MetricBatch}, {@link io.trainyard.protocol.Ended}).</li>
 * </ol>
 * Every message carries the agent's epoch; one from an older epoch is refused with 409 (fencing), and so is a
 * report about an attempt that is no longer the job's current one.
 *
 * <p>These are plain records with no Spring, JPA or server types: the agent jar carries this module and a JSON
 * library only. The server checks the Bean Validation constraints on what agents send.
 */
package io.trainyard.protocol;

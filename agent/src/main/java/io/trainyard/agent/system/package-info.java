/** What a job uses of its host (GPUs, CPU, memory, I/O), sampled while it runs and shipped to the server. */
package io.trainyard.agent.system;

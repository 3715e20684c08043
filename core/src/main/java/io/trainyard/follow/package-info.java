/**
 * Live tails of what jobs store (log lines, scalars): one follow loop for every stream, woken as soon as this
 * server stores something for the job.
 */
package io.trainyard.follow;

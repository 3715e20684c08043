package io.trainyard.dispatch;

import io.trainyard.job.Job;

/** Where the jobs of one dispatch transaction go: a view of free capacity that each placement reduces. */
@FunctionalInterface
public interface ReservationPass {

    Reservation reserve(Job job);
}

package io.trainyard.backend;

import io.trainyard.job.Job;

/**
 * Where the jobs of one dispatch transaction go: a view of free capacity that each placement reduces, so each
 * decision of the pass sees the capacity taken by those before it.
 */
@FunctionalInterface
public interface PlacementPass {

    PlacementDecision place(Job job);
}

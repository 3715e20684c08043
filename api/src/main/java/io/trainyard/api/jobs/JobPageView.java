package io.trainyard.api.jobs;

import java.util.List;

/** A page of jobs, newest first; pass {@code nextCursor} as {@code cursor} for the next page (null at the end). */
public record JobPageView(List<JobView> jobs, String nextCursor) {
}

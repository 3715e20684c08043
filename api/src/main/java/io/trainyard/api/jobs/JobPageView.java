package io.trainyard.api.jobs;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/** A page of jobs, newest first; pass {@code nextCursor} as {@code cursor} for the next page (null at the end). */
@Schema(name = "JobPage")
public record JobPageView(List<JobView> jobs, @Nullable String nextCursor) {
}

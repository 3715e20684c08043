import { queryOptions, useQueries, useQuery } from "@tanstack/react-query";
import { api, unwrap, type MetricSeries } from "../api/client";
import { isActive } from "../jobs/StateChip";

/**
 * How often a running job's charts are read again. Polling the series endpoint, rather than following the
 * metrics stream (SSE), keeps every chart downsampled by the server: the stream sends every point of every tag as
 * it is stored, which a fast trainer makes thousands a second, and raw points appended to a min/max-downsampled
 * series would no longer be one. Each refresh costs one small answer per line, and only while the job runs.
 */
export const REFRESH_MS = 3000;

/** Points per line: about two per pixel of a wide chart (the server keeps each run's lowest and highest point). */
const MAX_POINTS = 1000;

/** What a job's series are: the TensorBoard scalars its trainer wrote, or what it used of its host (GPUs, CPU…). */
export type MetricSource = "metrics" | "system-metrics";

/** The job's scalar tags (or system metric series), read again while it runs. */
export function useMetricTags(jobId: string, live: boolean, source: MetricSource = "metrics") {
  return useQuery(metricTagsQuery(jobId, live, source));
}

export function metricTagsQuery(jobId: string, live: boolean, source: MetricSource = "metrics") {
  const params = { params: { path: { id: jobId } } };
  return queryOptions({
    // `live` is part of the key so that the list is read once more when the job ends: tags written at the end
    // (the runtime's test/…) are listed then.
    queryKey: [source, "tags", jobId, live],
    queryFn: () =>
      unwrap(
        source === "metrics" ? api.GET("/jobs/{id}/metrics", params) : api.GET("/jobs/{id}/system-metrics", params),
      ),
    refetchInterval: live ? REFRESH_MS : false,
    // The same job's list stays on screen while it is read again under the other key.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === jobId ? previous : undefined),
  });
}

/** One line to read: a job's tag, of one attempt or (none named) of the latest attempt that wrote it. */
export interface SeriesRequest {
  jobId: string;
  tag: string;
  attempt?: number;
}

/**
 * Each requested series, downsampled by the server, read again while its job runs. The answer carries the job's
 * state; once the job has ended every point is stored (the server stores a run's last points before it ends it).
 */
export function useMetricSeries(requests: SeriesRequest[], source: MetricSource = "metrics") {
  return useQueries({
    queries: requests.map(({ jobId, tag, attempt }) => ({
      queryKey: [source, "series", jobId, tag, attempt ?? "latest"],
      queryFn: () => {
        const params = { params: { path: { id: jobId }, query: { tag, attempt, maxPoints: MAX_POINTS } } };
        return unwrap(
          source === "metrics"
            ? api.GET("/jobs/{id}/metrics/series", params)
            : api.GET("/jobs/{id}/system-metrics/series", params),
        );
      },
      refetchInterval: (query: { state: { data?: MetricSeries; error: unknown } }) =>
        query.state.error || (query.state.data && !isActive(query.state.data.jobState)) ? false : REFRESH_MS,
    })),
  });
}

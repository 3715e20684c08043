import { useMemo, useState } from "react";
import { Link, useSearchParams } from "react-router-dom";
import { useQueries } from "@tanstack/react-query";
import { api, unwrap, type Job } from "../api/client";
import { StateChip, isActive } from "../jobs/StateChip";
import { MetricCard, XAxisPicker } from "../metrics/MetricCard";
import type { Line, XAxis } from "../metrics/lines";
import { metricTagsQuery, useMetricSeries } from "../metrics/queries";
import { inWrittenOrder } from "../metrics/tags";
import { MAX_COMPARED, compareHref, jobLabels, parseJobIds, sharedTags, tensorBoardHref } from "./compare";

/**
 * Several jobs' metric charts overlaid (`/ui/compare?jobs=a,b,c`, picked on the Jobs page): a chart per tag the
 * jobs share, a line per job (its latest attempt that wrote the tag).
 */
export function ComparePage() {
  const [params] = useSearchParams();
  const named = parseJobIds(params.get("jobs"));
  const ids = named.slice(0, MAX_COMPARED);
  const [axis, setAxis] = useState<XAxis>("step");

  const jobs = useQueries({
    queries: ids.map((id) => ({
      queryKey: ["job", id],
      queryFn: () => unwrap(api.GET("/jobs/{id}", { params: { path: { id } } })),
      refetchInterval: (query: { state: { data?: Job } }) =>
        query.state.data && !isActive(query.state.data.state) ? false : 2000,
    })),
  });
  const tags = useQueries({ queries: ids.map((id, index) => metricTagsQuery(id, isActive(jobs[index].data?.state))) });

  // Jobs that could not be read (unknown, not visible) are named, and left out of the charts.
  const shown = ids.flatMap((id, index) =>
    jobs[index].data && tags[index].data ? [{ id, job: jobs[index].data!, tags: tags[index].data! }] : [],
  );
  const failed = ids.flatMap((id, index) => {
    const error = jobs[index].error ?? tags[index].error;
    return error ? [{ id, message: error.message }] : [];
  });
  const loading = shown.length + failed.length < ids.length;
  const labels = jobLabels(shown.map(({ id, job }) => ({ id, name: job.jobName ?? id })));
  const shared = sharedTags(shown.map((one) => inWrittenOrder(one.tags).map((tag) => tag.tag)));

  if (ids.length === 0) {
    return (
      <p className="muted">
        No jobs to compare: tick them on the <Link to="/ui/jobs">Jobs</Link> page, then <em>Compare</em>.
      </p>
    );
  }
  return (
    <section className="compare-page">
      <div className="job-head">
        <h1>Compare {ids.length} jobs</h1>
        <span className="actions">
          <a href={tensorBoardHref(ids)} target="_blank" rel="noreferrer">
            Open in TensorBoard
          </a>
        </span>
      </div>
      <ul className="compared-jobs">
        {shown.map(({ id, job }, index) => (
          <li key={id}>
            <StateChip state={job.state} /> <Link to={`/ui/jobs/${id}`}>{labels[index]}</Link>{" "}
            <span className="muted">attempt {job.attempt}</span>{" "}
            <Link
              className="muted"
              to={compareHref(ids.filter((other) => other !== id))}
              aria-label={`Remove ${labels[index]}`}
            >
              ✕
            </Link>
          </li>
        ))}
        {failed.map(({ id, message }) => (
          <li key={id} className="error">
            {id}: {message}
          </li>
        ))}
      </ul>
      {named.length > MAX_COMPARED && (
        <p className="muted">
          Only the first {MAX_COMPARED} of the {named.length} jobs named are compared.
        </p>
      )}
      <div className="metrics-toolbar">
        <XAxisPicker value={axis} onChange={setAxis} />
      </div>
      {loading && <p className="muted">Loading…</p>}
      {!loading && shared.common.length === 0 && <p className="muted">These jobs share no metric tag.</p>}
      <div className="metric-grid">
        {!loading &&
          shared.common.map((tag) => (
            <JobsChart
              key={tag}
              tag={tag}
              jobs={shown.map(({ id }, index) => ({ id, label: labels[index] }))}
              axis={axis}
            />
          ))}
      </div>
      {!loading && shared.partial.length > 0 && (
        <p className="muted">
          Not in every job:{" "}
          {shared.partial.map(({ tag, jobs: count }) => `${tag} (${count} of ${shown.length})`).join(", ")}
        </p>
      )}
    </section>
  );
}

/** One tag: a line per job. */
function JobsChart({ tag, jobs, axis }: { tag: string; jobs: { id: string; label: string }[]; axis: XAxis }) {
  const series = useMetricSeries(jobs.map(({ id }) => ({ jobId: id, tag })));
  const updated = series.map((one) => one.dataUpdatedAt).join();
  const labels = jobs.map((job) => job.label).join();
  const lines = useMemo(
    (): Line[] =>
      series.flatMap((one, index) =>
        one.data?.points.length ? [{ label: jobs[index].label, points: one.data.points }] : [],
      ),
    // The queries' array and `jobs` are new on every render; the lines change only when an answer is read again
    // or a job's label changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `updated` and `labels` stand for `series` and `jobs`
    [updated, labels],
  );
  return (
    <MetricCard
      tag={tag}
      lines={lines}
      series={series.map((one) => one.data)}
      axis={axis}
      error={series.find((one) => one.error)?.error}
    />
  );
}

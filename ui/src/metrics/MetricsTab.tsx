import { useMemo, useState } from "react";
import type { Job, MetricTag } from "../api/client";
import { isActive } from "../jobs/StateChip";
import { MetricCard, XAxisPicker } from "./MetricCard";
import { formatValue, type Line, type XAxis } from "./lines";
import { REFRESH_MS, useMetricSeries, useMetricTags, type MetricSource } from "./queries";
import { inWrittenOrder } from "./tags";

/** A job's Metrics tab: a chart per scalar tag its trainer wrote, every attempt a line of its own. */
export function MetricsTab({ job }: { job: Job }) {
  const live = isActive(job.state);
  const tags = useMetricTags(job.id!, live);
  const [axis, setAxis] = useState<XAxis>("step");
  if (tags.error) return <p className="error">{tags.error.message}</p>;
  if (!tags.data) return <p className="muted">Loading…</p>;
  return (
    <div className="metrics">
      <div className="metrics-toolbar">
        <XAxisPicker value={axis} onChange={setAxis} />
        <span className="muted">
          {live ? `Live: read again every ${REFRESH_MS / 1000} s while the job runs` : ended(job.state)}
        </span>
      </div>
      {tags.data.length === 0 && (
        <p className="muted">
          {live
            ? "No scalars yet: the trainer's TensorBoard scalars show here as they are written."
            : "This job wrote no TensorBoard scalars."}
        </p>
      )}
      <div className="metric-grid">
        {inWrittenOrder(tags.data).map((tag) => (
          <AttemptsChart
            key={tag.tag}
            jobId={job.id!}
            tag={tag}
            axis={axis}
            summary={`last ${formatValue(tag.lastValue)} · min ${formatValue(tag.min)} · max ${formatValue(tag.max)} · steps ${tag.firstStep}–${tag.lastStep}`}
          />
        ))}
      </div>
    </div>
  );
}

/** How an ended job's metrics are complete, in words: "The job succeeded." */
export function ended(state: Job["state"]): string {
  switch (state) {
    case "SUCCEEDED":
      return "The job succeeded.";
    case "FAILED":
      return "The job failed.";
    case "CANCELLED":
      return "The job was cancelled.";
    default:
      return `The job is ${state.toLowerCase()}.`;
  }
}

/**
 * One tag: a line per attempt that wrote it, so a retry's curve lies over the first run's.
 *
 * @param title what the card is called, the tag itself unless given
 * @param scale what each value is divided by for display (bytes shown in GiB, say)
 */
export function AttemptsChart(props: {
  jobId: string;
  tag: MetricTag;
  axis: XAxis;
  summary: string;
  source?: MetricSource;
  title?: string;
  scale?: number;
}) {
  const { jobId, tag, axis, summary, source = "metrics", title, scale = 1 } = props;
  const attempts = Array.from({ length: tag.lastAttempt }, (_, index) => index + 1);
  const series = useMetricSeries(
    attempts.map((attempt) => ({ jobId, tag: tag.tag, attempt })),
    source,
  );
  const updated = series.map((one) => one.dataUpdatedAt).join();
  const lines = useMemo(
    (): Line[] =>
      series.flatMap((one, index) =>
        one.data?.points.length
          ? [
              {
                label: `attempt ${attempts[index]}`,
                points:
                  scale === 1
                    ? one.data.points
                    : one.data.points.map((point) => ({ ...point, value: point.value! / scale })),
              },
            ]
          : [],
      ),
    // The queries' array is new on every render; their answers change only when one is read again.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `updated` stands for `series` (and `attempts`, its length)
    [updated, scale],
  );
  return (
    <MetricCard
      tag={tag.tag}
      title={title}
      summary={summary}
      lines={lines}
      series={series.map((one) => one.data)}
      axis={axis}
      error={series.find((one) => one.error)?.error}
    />
  );
}

import type { Job } from "../api/client";
import { isActive } from "../jobs/StateChip";
import { AttemptsChart, ended } from "../metrics/MetricsTab";
import { formatValue } from "../metrics/lines";
import { REFRESH_MS, useMetricTags } from "../metrics/queries";
import { inDeviceOrder, measureOf, usageSummary } from "./measures";

/**
 * A job's System tab: what it used of its host, sampled every few seconds by the agent (Cloud Monitoring's figures
 * for Vertex AI): a chart per GPU and measure, then per worker, along the time since the attempt started.
 */
export function SystemTab({ job }: { job: Job }) {
  const live = isActive(job.state);
  const tags = useMetricTags(job.id!, live, "system-metrics");
  if (tags.error) return <p className="error">{tags.error.message}</p>;
  if (!tags.data) return <p className="muted">Loading…</p>;
  const summary = usageSummary(tags.data);
  return (
    <div className="metrics">
      <div className="metrics-toolbar">
        {summary && <strong data-testid="usage-summary">{summary}</strong>}
        <span className="muted">
          {live ? `Live: read again every ${REFRESH_MS / 1000} s while the job runs` : ended(job.state)}
        </span>
      </div>
      {tags.data.length === 0 && (
        <p className="muted">
          {live
            ? "No samples yet: the agent samples the job's GPUs, CPU, memory and I/O every few seconds."
            : "Nothing was sampled for this job."}
        </p>
      )}
      <div className="metric-grid">
        {inDeviceOrder(tags.data).map((tag) => {
          const measure = measureOf(tag.tag);
          const unit = measure.unit ? ` ${measure.unit}` : "";
          return (
            <AttemptsChart
              key={tag.tag}
              jobId={job.id!}
              tag={tag}
              axis="elapsed"
              source="system-metrics"
              title={`${measure.device} · ${measure.label}`}
              scale={measure.scale}
              summary={
                measure.counter
                  ? `${formatValue(scaled(tag.lastValue, measure.scale))}${unit} in all`
                  : `avg ${formatValue(scaled(tag.mean, measure.scale))}${unit} · peak ${formatValue(scaled(tag.max, measure.scale))}${unit}`
              }
            />
          );
        })}
      </div>
    </div>
  );
}

function scaled(value: number | null | undefined, scale: number): number | null | undefined {
  return value == null ? value : value / scale;
}

import type { ReactNode } from "react";
import type { MetricSeries } from "../api/client";
import { MetricChart } from "./MetricChart";
import { X_AXES, formatValue, type Line, type XAxis } from "./lines";

/**
 * One tag's chart with its name, a summary line, and what the chart shows of the points. A tag written once per line
 * (a test metric, say) shows its numbers instead: a chart of single dots says less.
 */
export function MetricCard(props: {
  tag: string;
  title?: string;
  summary?: ReactNode;
  lines: Line[];
  series: (MetricSeries | undefined)[];
  axis: XAxis;
  error?: Error | null;
}) {
  const { tag, title, summary, lines, series, axis, error } = props;
  const loaded = series.filter((one) => one !== undefined);
  return (
    <figure className="metric-card" data-testid="metric-chart" data-tag={tag}>
      <figcaption>
        <strong>{title ?? tag}</strong> <span className="muted">{summary}</span>
      </figcaption>
      {error ? (
        <p className="error">{error.message}</p>
      ) : lines.length > 0 && loaded.length === series.length && lines.every((line) => line.points.length === 1) ? (
        <SingleValues lines={lines} />
      ) : lines.length > 0 ? (
        <MetricChart lines={lines} axis={axis} />
      ) : (
        <p className="muted chart-placeholder">{loaded.length < series.length ? "Loading…" : "No points."}</p>
      )}
      <p className="muted chart-note">
        {downsampleNote(loaded)}
        {loaded.length < series.length && ` · loading ${series.length - loaded.length} more line(s)…`}
      </p>
    </figure>
  );
}

/** Each line's one point: its value, and the step it was written at. */
function SingleValues({ lines }: { lines: Line[] }) {
  return (
    <dl className="metric-values" data-testid="metric-values">
      {lines.map((line) => (
        <div key={line.label}>
          <dt className="muted">{line.label}</dt>
          <dd>
            <strong>{formatValue(line.points[0].value)}</strong>
            {line.points[0].step != null && (
              <span className="muted"> at step {line.points[0].step.toLocaleString()}</span>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** How many of the points are drawn: all, or each run's lowest and highest when the server downsampled. */
function downsampleNote(series: MetricSeries[]): string {
  const total = series.reduce((sum, one) => sum + one.totalPoints, 0);
  const drawn = series.reduce((sum, one) => sum + one.points.length, 0);
  if (!series.some((one) => one.downsampled)) return total === 1 ? "1 point" : `${total.toLocaleString()} points`;
  return `${drawn.toLocaleString()} of ${total.toLocaleString()} points drawn: the lowest and highest of each run of points`;
}

/** Step, time since start, or wall clock along the x axis. */
export function XAxisPicker({ value, onChange }: { value: XAxis; onChange: (axis: XAxis) => void }) {
  return (
    <fieldset className="x-axis">
      <legend>X axis</legend>
      {X_AXES.map((axis) => (
        <label key={axis.id}>
          <input type="radio" name="x-axis" checked={value === axis.id} onChange={() => onChange(axis.id)} />{" "}
          {axis.label}
        </label>
      ))}
    </fieldset>
  );
}

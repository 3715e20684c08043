import uPlot from "uplot";
import type { ScalarPoint } from "../api/client";

/** What a chart's x axis measures. */
export type XAxis = "step" | "elapsed" | "wall";

export const X_AXES: { id: XAxis; label: string }[] = [
  { id: "step", label: "Step" },
  // Attempts (and jobs) ran at different times: elapsed time lays them over each other, the wall clock side by side.
  { id: "elapsed", label: "Time since start" },
  { id: "wall", label: "Wall clock" },
];

/** One line of a chart: an attempt of a job (on its Metrics tab) or a job (on the Compare page). */
export interface Line {
  label: string;
  points: ScalarPoint[];
}

/**
 * The lines as uPlot's aligned data: one x array, the union of the lines' x values in ascending order, and one y
 * array per line. A line has `undefined` where only other lines have a point (uPlot draws across it) and `null`
 * where its value is not a number (NaN or ±Infinity, which the server sends as strings): a gap in the line.
 *
 * The points are used as the series endpoint gives them: a downsampled series holds the lowest and the highest
 * point of each run of points, so the line runs through every run's extremes and a spike stays visible.
 */
export function alignLines(lines: Line[], axis: XAxis): uPlot.AlignedData {
  if (lines.length === 0) return [[]];
  return uPlot.join(lines.map((line) => table(line.points, axis)));
}

function table(points: ScalarPoint[], axis: XAxis): uPlot.AlignedData {
  const origin = axis === "elapsed" ? firstWallTime(points) : 0;
  const xs = points.map((point) => (axis === "step" ? point.step! : point.wallTime! - origin));
  const ys = points.map((point) => (Number.isFinite(point.value) ? point.value! : null));
  return [xs, ys];
}

/** When the line's first point was written (points come by step, which a restarted writer may not keep in time order). */
function firstWallTime(points: ScalarPoint[]): number {
  return points.reduce((first, point) => Math.min(first, point.wallTime!), Number.POSITIVE_INFINITY);
}

const number = new Intl.NumberFormat(undefined, { maximumSignificantDigits: 4 });

/** A metric's value for people: four significant digits; a dash for none or not a number. */
export function formatValue(value: number | null | undefined): string {
  return value == null || !Number.isFinite(value) ? "—" : number.format(value);
}

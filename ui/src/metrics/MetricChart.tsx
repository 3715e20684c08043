import { useEffect, useMemo, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { alignLines, formatValue, type Line, type XAxis } from "./lines";

const HEIGHT = 220;
// Distinguishable on white, in the order lines are added (attempt 1, 2, … or the jobs compared).
const COLOURS = [
  "#2b6cb0",
  "#dd6b20",
  "#38a169",
  "#c53030",
  "#805ad5",
  "#d69e2e",
  "#319795",
  "#d53f8c",
  "#4a5568",
  "#718096",
];

const X_LABELS: Record<XAxis, string> = { step: "step", elapsed: "seconds since the line's first point", wall: "" };

/** The y axis as wide as its longest tick label (about 7 px a character in uPlot's font), so none is cut off. */
function tickLabelsWidth(_: uPlot, values: string[] | null): number {
  return 18 + 7 * Math.max(3, ...(values ?? []).map((value) => String(value).length));
}

/**
 * One tag's lines drawn by uPlot, which draws on a canvas and stays fast with many lines of thousands of points.
 * Hovering shows every line's value at that x in the legend (clicking a legend entry hides its line); the cursor
 * is shared by the charts of a page, and dragging zooms (double click: back).
 */
export function MetricChart({ lines, axis }: { lines: Line[]; axis: XAxis }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const data = useMemo(() => alignLines(lines, axis), [lines, axis]);
  // The data a new chart starts with (the effect below it keeps it current).
  const latest = useRef(data);
  useEffect(() => {
    latest.current = data;
  }, [data]);
  // What the lines are, as a value that changes only when they do (`lines` is new at every refresh).
  const labels = JSON.stringify(lines.map((line) => line.label));

  // A new chart when the lines or the axis change; new points only update its data (below).
  useEffect(() => {
    const element = box.current!;
    const chart = new uPlot(
      {
        width: element.clientWidth,
        height: HEIGHT,
        scales: { x: { time: axis === "wall" } },
        axes: [
          { label: X_LABELS[axis] || undefined },
          { size: tickLabelsWidth, values: (_, ticks) => ticks.map(formatValue) },
        ],
        series: [
          { label: axis === "step" ? "step" : axis === "elapsed" ? "seconds" : "time" },
          ...(JSON.parse(labels) as string[]).map((label, index) => ({
            label,
            stroke: COLOURS[index % COLOURS.length],
            width: 1.5,
            value: (_: uPlot, value: number | null) => formatValue(value),
          })),
        ],
        cursor: { sync: { key: "metrics" } },
      },
      latest.current,
      element,
    );
    plot.current = chart;
    const resize = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
      plot.current = null;
    };
  }, [labels, axis]);

  // New points: rescaled to show them all, unless the user has zoomed in (a live chart would undo it every refresh).
  useEffect(() => {
    const chart = plot.current;
    if (!chart) return;
    const xs = chart.data[0];
    const zoomed = xs.length > 0 && (chart.scales.x.min! > xs[0] || chart.scales.x.max! < xs[xs.length - 1]);
    chart.setData(data, !zoomed);
  }, [data]);

  return <div ref={box} className="metric-chart" />;
}

import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import type { MetricSeries } from "../api/client";
import { MetricCard } from "./MetricCard";

function series(points: { step: number; value: number }[]): MetricSeries {
  return {
    tag: "test/mrr",
    attempt: 1,
    jobState: "SUCCEEDED",
    downsampled: false,
    totalPoints: points.length,
    points: points.map((point) => ({ ...point, rank: 0, wallTime: 1_700_000_000 + point.step })),
  };
}

describe("a metric card", () => {
  afterEach(cleanup);

  it("shows a tag written once per attempt as its numbers, not as a chart of dots", () => {
    const first = series([{ step: 40, value: 0.8123 }]);
    const retry = series([{ step: 40, value: 0.8291 }]);
    render(
      <MetricCard
        tag="test/mrr"
        lines={[
          { label: "attempt 1", points: first.points },
          { label: "attempt 2", points: retry.points },
        ]}
        series={[first, retry]}
        axis="step"
      />,
    );

    const values = screen.getByTestId("metric-values");
    expect(values.textContent).toContain("attempt 1");
    expect(values.textContent).toContain("0.8123 at step 40");
    expect(values.textContent).toContain("0.8291 at step 40");
    expect(screen.getByText("2 points")).toBeTruthy();
  });

  it("says one point in the singular", () => {
    const once = series([{ step: 1, value: 3 }]);
    render(
      <MetricCard tag="test/mrr" lines={[{ label: "attempt 1", points: once.points }]} series={[once]} axis="step" />,
    );

    expect(screen.getByText("1 point")).toBeTruthy();
    expect(screen.getByTestId("metric-values").textContent).toContain("3 at step 1");
  });
});

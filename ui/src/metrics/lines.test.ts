import { describe, expect, it } from "vitest";
import type { ScalarPoint } from "../api/client";
import { alignLines, formatValue } from "./lines";

/** Points of one attempt: [step, wall time (s), value]. */
function points(...rows: [number, number, number | string][]): ScalarPoint[] {
  return rows.map(([step, wallTime, value]) => ({ step, wallTime, value: value as number, rank: 0 }));
}

// Attempt 1 ran at 1000 s for three logged steps; attempt 2 (a retry) started an hour later and has two so far.
const first = { label: "attempt 1", points: points([0, 1000, 2.5], [20, 1010, 1.8], [40, 1020, 1.2]) };
const retry = { label: "attempt 2", points: points([0, 4600, 2.4], [20, 4605, 1.5]) };

describe("a chart's lines", () => {
  it("lays attempts over each other by step: one x axis, a line per attempt, a hole where an attempt has no point", () => {
    const [x, one, two] = alignLines([first, retry], "step");
    expect(Array.from(x)).toEqual([0, 20, 40]);
    expect(Array.from(one)).toEqual([2.5, 1.8, 1.2]);
    expect(Array.from(two)).toEqual([2.4, 1.5, undefined]);
  });

  it("by time since start, starts every attempt at 0 so a retry lies over the first run", () => {
    const [x, one, two] = alignLines([first, retry], "elapsed");
    expect(Array.from(x)).toEqual([0, 5, 10, 20]);
    expect(Array.from(one)).toEqual([2.5, undefined, 1.8, 1.2]);
    expect(Array.from(two)).toEqual([2.4, 1.5, undefined, undefined]);
  });

  it("by wall clock, puts each point at the second it was written (attempts side by side)", () => {
    const [x, one, two] = alignLines([first, retry], "wall");
    expect(Array.from(x)).toEqual([1000, 1010, 1020, 4600, 4605]);
    expect(Array.from(one).slice(0, 3)).toEqual([2.5, 1.8, 1.2]);
    expect(Array.from(two).slice(3)).toEqual([2.4, 1.5]);
  });

  it("keeps every point of a downsampled series, so each run's lowest and highest both show", () => {
    // What the server sends for two runs of points: each run's lowest and highest, in step order.
    const downsampled = { label: "attempt 1", points: points([0, 0, 3.0], [37, 1, 0.9], [40, 2, 9.5], [79, 3, 0.8]) };
    const [x, y] = alignLines([downsampled], "step");
    expect(Array.from(x)).toEqual([0, 37, 40, 79]);
    expect(Math.max(...(y as number[]))).toBe(9.5);
  });

  it("breaks a line where the value is not a number (the server sends NaN as a string)", () => {
    const [, y] = alignLines([{ label: "attempt 1", points: points([0, 0, 1], [1, 1, "NaN"], [2, 2, 0.5]) }], "step");
    expect(Array.from(y)).toEqual([1, null, 0.5]);
  });

  it("is an empty chart without lines", () => {
    expect(alignLines([], "step")).toEqual([[]]);
  });
});

describe("a metric's value", () => {
  it("is shown to four significant digits, a dash when there is none", () => {
    expect(formatValue(0.123456)).toMatch(/^0[.,]1235$/);
    expect(formatValue(null)).toBe("—");
    expect(formatValue(Number.NaN)).toBe("—");
  });
});

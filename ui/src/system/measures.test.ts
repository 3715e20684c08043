import { describe, expect, it } from "vitest";
import type { MetricTag } from "../api/client";
import { inDeviceOrder, measureOf, usageSummary } from "./measures";

const GIB = 1024 ** 3;

function series(tag: string, points: number, mean: number, max: number): MetricTag {
  return { tag, points, firstStep: 0, lastStep: 1000, min: 0, max, mean, lastValue: mean, lastAttempt: 1 };
}

describe("system metrics for people", () => {
  it("names the device and the measure, bytes in GiB", () => {
    expect(measureOf("gpu3/memory_used_bytes")).toEqual({
      device: "GPU 3",
      label: "memory used",
      unit: "GiB",
      scale: GIB,
    });
    expect(measureOf("rank0/cpu_percent")).toMatchObject({
      device: "Worker 0",
      label: "CPU (100 % is one core)",
      unit: "%",
    });
    expect(measureOf("gpu0/something_new")).toMatchObject({ device: "GPU 0", label: "something_new", scale: 1 });
  });

  it("sums a job's use up in one line: GPUs averaged by samples, the peak memory of any", () => {
    const tags = [
      series("gpu0/utilization_percent", 10, 10, 50),
      series("gpu1/utilization_percent", 30, 2, 9),
      series("gpu0/memory_used_bytes", 10, 5 * GIB, 11.2 * GIB),
      series("gpu1/memory_used_bytes", 30, 1 * GIB, 3 * GIB),
      series("rank0/cpu_percent", 10, 98.4, 100),
      series("rank0/rss_bytes", 10, GIB, 1.24 * GIB),
    ];
    expect(usageSummary(tags)).toBe("GPU 4 % avg, 11.2 GiB peak · CPU 98 % avg, 1.2 GiB peak RSS");
    expect(usageSummary(tags.slice(4))).toBe("CPU 98 % avg, 1.2 GiB peak RSS");
    expect(usageSummary([])).toBeNull();
  });

  it("shows GPUs first, then workers, by number and measure", () => {
    const order = inDeviceOrder(
      [
        "rank10/cpu_percent",
        "rank2/rss_bytes",
        "gpu1/power_watts",
        "rank2/cpu_percent",
        "gpu1/utilization_percent",
      ].map((tag) => series(tag, 1, 1, 1)),
    ).map((tag) => tag.tag);
    expect(order).toEqual([
      "gpu1/utilization_percent",
      "gpu1/power_watts",
      "rank2/cpu_percent",
      "rank2/rss_bytes",
      "rank10/cpu_percent",
    ]);
  });
});

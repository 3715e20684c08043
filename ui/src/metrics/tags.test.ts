import { describe, expect, it } from "vitest";
import type { MetricTag } from "../api/client";
import { inWrittenOrder } from "./tags";

function tag(name: string, firstStep: number): MetricTag {
  return { tag: name, firstStep, lastStep: 300, points: 1, lastValue: 0, lastAttempt: 1 };
}

describe("a job's tags", () => {
  it("come in the order the trainer began writing them, training before validation before the final test", () => {
    const tags = [tag("test/mrr", 300), tag("train/loss", 20), tag("val/mrr", 100), tag("train/epoch", 20)];
    expect(inWrittenOrder(tags).map((one) => one.tag)).toEqual(["train/epoch", "train/loss", "val/mrr", "test/mrr"]);
  });
});

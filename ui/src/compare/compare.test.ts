import { describe, expect, it } from "vitest";
import { compareHref, jobLabels, parseJobIds, sharedTags, tensorBoardHref } from "./compare";

describe("a comparison", () => {
  it("reads its jobs from the address as they were written, each once", () => {
    expect(parseJobIds("a, b,,a,c")).toEqual(["a", "b", "c"]);
    expect(parseJobIds(null)).toEqual([]);
    expect(parseJobIds(compareHref(["x", "y"]).split("jobs=")[1])).toEqual(["x", "y"]);
  });

  it("links TensorBoard's comparison of the same jobs", () => {
    expect(tensorBoardHref(["a", "b", "c"])).toBe("/tensorboard?jobs=a,b,c");
  });

  it("charts the tags every job has and names the others with how many jobs have them, in the order they come", () => {
    const shared = sharedTags([
      ["train/loss", "val/mrr", "train/learning_rate"],
      ["train/loss", "train/learning_rate", "val/mrr"],
      ["train/learning_rate", "train/loss", "gpu/allocated_bytes"],
    ]);
    expect(shared.common).toEqual(["train/loss", "train/learning_rate"]);
    expect(shared.partial).toEqual([
      { tag: "val/mrr", jobs: 2 },
      { tag: "gpu/allocated_bytes", jobs: 1 },
    ]);
  });

  it("tells jobs of the same name apart in a legend by their id", () => {
    expect(
      jobLabels([
        { id: "11111111-aaaa", name: "demo" },
        { id: "22222222-bbbb", name: "demo" },
        { id: "33333333-cccc", name: "other" },
      ]),
    ).toEqual(["demo (11111111)", "demo (22222222)", "other"]);
  });
});

import { describe, expect, it } from "vitest";
import type { Job } from "../api/client";
import { placementText } from "./placement";

const placed = (placement: unknown) => placementText({ placement: placement as Job["placement"] });

describe("a job's placement", () => {
  it("shows an agent's fields, in the server's order, without the kind", () => {
    expect(placed({ kind: "agent", node: "a1", device: "cuda", gpus: [0, 1], cpuSlots: 0 })).toBe(
      "node a1 · device cuda · gpus 0, 1",
    );
    expect(placed({ kind: "agent", node: "a1", device: "cpu", gpus: [], cpuSlots: 2 })).toBe(
      "node a1 · device cpu · cpuSlots 2",
    );
  });

  it("shows the other hosts of a job spanning agents, each with its ranks", () => {
    const second = { node: "a2", gpus: [0, 1], cpuSlots: 0, firstRank: 2, workers: 2 };
    expect(placed({ kind: "agent", node: "a1", device: "gpu", gpus: [2, 3], cpuSlots: 0, moreHosts: [second] })).toBe(
      "node a1 · device gpu · gpus 2, 3 · moreHosts (node a2; gpus 0, 1; firstRank 2; workers 2)",
    );
  });

  it("shows a Vertex AI job's project and region the same way", () => {
    expect(placed({ kind: "vertexAi", project: "ml-prod", region: "us-central1" })).toBe(
      "project ml-prod · region us-central1",
    );
  });

  it("shows the fields of a kind the dashboard has never heard of", () => {
    expect(placed({ kind: "slurm", cluster: "c1", nodes: ["n1", "n2"], partition: null, exclusive: true })).toBe(
      "cluster c1 · nodes n1, n2 · exclusive true",
    );
  });

  it("says when the job is not placed yet", () => {
    expect(placementText({ placement: null })).toBe("not placed");
    expect(placementText({ placement: null, node: "a1" })).toBe("node a1");
  });
});

import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen, within } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter } from "react-router-dom";
import { answerApi } from "../testApi";
import { PoolPage } from "./PoolPage";

const SLURM = {
  name: "slurm",
  description: "a Slurm cluster",
  resourceConfigs: ["localTrainerConfig"],
  gpus: true,
  nodes: true,
  partitions: true,
  placement: "slurm",
  links: [],
};

function poolPage() {
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queries}>
      <MemoryRouter>
        <PoolPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe("the Pool page's partitions", () => {
  afterEach(cleanup);

  it("shows each partition of a cluster backend with its nodes' GPUs in use", async () => {
    answerApi({
      "GET /agents": [],
      "GET /backends": [{ ...SLURM, name: "local", partitions: false, placement: "agent" }, SLURM],
      "GET /backends/slurm/partitions": {
        backend: "slurm",
        readAt: "2026-11-28T01:00:00Z",
        partitions: [
          {
            name: "gpu",
            isDefault: true,
            cpus: 8,
            cpusAllocated: 2,
            gpus: 4,
            gpusUsed: 2,
            nodes: [
              { name: "node1", state: "mixed", cpus: 4, cpusAllocated: 2, gpus: 2, gpusUsed: 2 },
              { name: "node2", state: "idle", cpus: 4, cpusAllocated: 0, gpus: 2, gpusUsed: 0 },
            ],
          },
        ],
      },
    });
    poolPage();

    const partition = await screen.findByTestId("partition-gpu");
    expect(within(partition).getByText("GPUs 2 of 4 in use · CPUs 2 of 8 allocated")).toBeTruthy();
    expect(within(partition).getByText("default")).toBeTruthy();
    const busy = within(partition).getByTitle("node1: mixed");
    expect(busy.className).toContain("in-use");
    expect(within(busy).getByText("GPUs 2/2")).toBeTruthy();
    expect(within(partition).getByTitle("node2: idle").className).toContain("free");
    expect(screen.queryByRole("region", { name: "Partitions of local" })).toBeNull();
  });

  it("says so while the cluster has never answered", async () => {
    answerApi({
      "GET /agents": [],
      "GET /backends": [SLURM],
      "GET /backends/slurm/partitions": { backend: "slurm", partitions: [] },
    });
    poolPage();

    expect(await screen.findByText("The cluster has not answered yet.")).toBeTruthy();
  });
});

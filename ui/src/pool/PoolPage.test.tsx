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

describe("the Pool page's GPUs", () => {
  afterEach(cleanup);

  it("shows how busy each GPU was at its agent's last sample, and nothing for one never sampled", async () => {
    const gpu = { model: "NVIDIA H100 80GB HBM3", memoryMiB: 81559, inUse: false };
    answerApi({
      "GET /agents": [
        {
          id: "gpu-node",
          host: "gpu-node.example",
          state: "ACTIVE",
          epoch: 1,
          cpuSlots: 0,
          cpuSlotsUsed: 0,
          runningJobs: [],
          gpusSampledAt: "2026-11-28T01:00:00Z",
          gpus: [
            {
              ...gpu,
              index: 0,
              utilizationPercent: 7.4,
              memoryUsedMiB: 11468,
              powerWatts: 71.5,
              temperatureCelsius: 34,
            },
            { ...gpu, index: 1 },
          ],
        },
      ],
      "GET /backends": [],
    });
    poolPage();

    const use = await screen.findByTestId("gpu-use");
    expect(use.textContent).toBe(" 7 % busy · 11.2 GiB");
    expect(use.title).toBe("NVIDIA H100 80GB HBM3 · 81559 MiB · 72 W · 34 °C");
    expect(screen.getAllByTestId("gpu-use")).toHaveLength(1);
  });
});

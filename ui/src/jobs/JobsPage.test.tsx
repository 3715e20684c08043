import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter } from "react-router-dom";
import { answerApi } from "../testApi";
import { JobsPage } from "./JobsPage";

const BACKENDS = [
  {
    name: "local",
    description: "agents",
    resourceConfigs: ["localTrainerConfig"],
    gpus: true,
    nodes: false,
    partitions: false,
    placement: "agent",
    links: ["tensorboard"],
  },
  {
    name: "slurm",
    description: "a Slurm cluster",
    resourceConfigs: ["slurmTrainerConfig"],
    gpus: true,
    nodes: true,
    partitions: false,
    placement: "slurm",
    links: [],
  },
];

function jobsPage() {
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queries}>
      <MemoryRouter>
        <JobsPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe("the Jobs page's backend filter", () => {
  afterEach(cleanup);

  it("offers the backends the server lists, and shows only the jobs of the one picked", async () => {
    answerApi({
      "GET /backends": BACKENDS,
      "GET /projects": [],
      "GET /jobs": {
        jobs: [
          { id: "j1", jobName: "on_agents", backend: "local", state: "RUNNING" },
          { id: "j2", jobName: "on_slurm", backend: "slurm", state: "SUCCEEDED" },
        ],
      },
    });
    jobsPage();
    const filter = screen.getByRole("combobox", { name: "Backend" }) as HTMLSelectElement;
    await screen.findByRole("option", { name: "slurm" });
    expect([...filter.options].map((option) => option.value)).toEqual(["", "local", "slurm"]);
    expect(await screen.findByText(/^2 loaded/)).toBeTruthy();

    await userEvent.selectOptions(filter, "slurm");
    expect(screen.getByText(/^1 loaded/)).toBeTruthy();
  });
});

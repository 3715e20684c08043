import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import { answerApi, calls } from "../testApi";
import { SubmitPage } from "./SubmitPage";

// CodeMirror needs a layout jsdom does not have; a text area stands for each YAML editor.
vi.mock("../common/YamlEditor", () => ({
  YamlEditor: (props: { label: string; value: string; onChange?: (value: string) => void }) => (
    <textarea aria-label={props.label} value={props.value} onChange={(e) => props.onChange?.(e.target.value)} />
  ),
}));

const BACKENDS = [
  {
    name: "local",
    description: "agents",
    resourceConfigs: ["localTrainerConfig"],
    gpus: true,
    nodes: false,
    partitions: false,
    placement: "agent",
    links: [],
  },
  {
    name: "vertex-ai",
    description: "Vertex AI",
    resourceConfigs: ["vertexAiTrainerConfig"],
    gpus: true,
    nodes: false,
    partitions: false,
    placement: "vertexAi",
    links: [],
  },
];

function submitPage() {
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queries}>
      <MemoryRouter initialEntries={["/ui/submit"]}>
        <Routes>
          <Route path="/ui/submit" element={<SubmitPage />} />
          <Route path="/ui/jobs/:id" element={<p>job page</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const created = () =>
  new Response(JSON.stringify({ id: "j1" }), { status: 201, headers: { "Content-Type": "application/json" } });
const submitted = () =>
  calls.find((call) => call.method === "POST" && call.path === "/jobs")?.body as Record<string, unknown>;

describe("submitting a job", () => {
  afterEach(cleanup);

  it("leaves the backend to the resource config unless one is picked", async () => {
    answerApi({ "GET /backends": BACKENDS, "POST /jobs": created });
    submitPage();
    await userEvent.type(screen.getByLabelText("Job name"), "demo");
    await userEvent.click(screen.getByRole("button", { name: "Submit" }));
    await screen.findByText("job page");
    expect(submitted().jobName).toBe("demo");
    expect(submitted()).not.toHaveProperty("backend");
  });

  it("sends the backend picked from the server's", async () => {
    answerApi({ "GET /backends": BACKENDS, "POST /jobs": created });
    submitPage();
    const backend = screen.getByRole("combobox", { name: "Backend" }) as HTMLSelectElement;
    await screen.findByRole("option", { name: "vertex-ai" });
    expect([...backend.options].map((option) => option.text)).toEqual([
      "chosen by the resource config",
      "local",
      "vertex-ai",
    ]);
    await userEvent.type(screen.getByLabelText("Job name"), "demo");
    await userEvent.selectOptions(backend, "vertex-ai");
    await userEvent.click(screen.getByRole("button", { name: "Submit" }));
    await screen.findByText("job page");
    expect(submitted().backend).toBe("vertex-ai");
  });

  it("shows the server's refusal of the backend", async () => {
    const refused = () =>
      new Response(
        JSON.stringify({
          status: 400,
          detail: "invalid submission",
          errors: [{ field: "backend", message: "vertex-ai does not run localTrainerConfig" }],
        }),
        { status: 400, headers: { "Content-Type": "application/problem+json" } },
      );
    answerApi({ "GET /backends": BACKENDS, "POST /jobs": refused });
    submitPage();
    await screen.findByRole("option", { name: "vertex-ai" });
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Backend" }), "vertex-ai");
    await userEvent.click(screen.getByRole("button", { name: "Submit" }));
    expect((await screen.findByTestId("field-errors")).textContent).toBe(
      "backend: vertex-ai does not run localTrainerConfig",
    );
  });
});

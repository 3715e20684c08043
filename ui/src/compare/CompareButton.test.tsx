import { describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, Route, Routes, useLocation } from "react-router-dom";
import { CompareButton } from "./CompareButton";

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname + location.search}</p>;
}

function jobsPage(selected: string[]) {
  render(
    <MemoryRouter initialEntries={["/ui/jobs"]}>
      <Routes>
        <Route path="/ui/jobs" element={<CompareButton jobIds={selected} />} />
        <Route path="/ui/compare" element={<Where />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe("comparing the jobs ticked on the Jobs page", () => {
  it("opens the Compare page naming them in its address, in their order", async () => {
    jobsPage(["3f0c", "a91b", "77de"]);
    await userEvent.click(screen.getByRole("button", { name: "Compare 3 selected" }));
    expect(screen.getByTestId("where").textContent).toBe("/ui/compare?jobs=3f0c,a91b,77de");
  });

  it("needs two jobs at least", () => {
    jobsPage(["3f0c"]);
    expect((screen.getByRole("button", { name: "Compare 1 selected" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("takes no more jobs than one comparison shows", () => {
    jobsPage(Array.from({ length: 21 }, (_, index) => `job${index}`));
    const button = screen.getByRole("button", { name: "Compare 21 selected" }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.title).toMatch(/At most 20/);
  });
});

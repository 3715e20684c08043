import { describe, expect, it, vi } from "vitest";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { ConfirmButton } from "./Confirm";

describe("a button that asks first", () => {
  it("does nothing until confirmed, and nothing when the user keeps the job", async () => {
    const act = vi.fn();
    render(<ConfirmButton label="Cancel" question="Cancel demo?" onConfirm={act} />);
    await userEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.getByRole("dialog").textContent).toContain("Cancel demo?");
    await userEvent.click(screen.getByRole("button", { name: "Keep" }));
    expect(act).not.toHaveBeenCalled();
    expect(screen.queryByRole("dialog")).toBeNull();

    await userEvent.click(screen.getByRole("button", { name: "Cancel" }));
    await userEvent.click(screen.getByRole("button", { name: "Confirm" }));
    expect(act).toHaveBeenCalledOnce();
  });

  it("keeps the dialog open and shows why when the action fails", async () => {
    render(
      <ConfirmButton label="Retry" question="Retry?" onConfirm={() => Promise.reject(new Error("job is running"))} />,
    );
    await userEvent.click(screen.getByRole("button", { name: "Retry" }));
    await userEvent.click(screen.getByRole("button", { name: "Confirm" }));
    expect(await screen.findByText("job is running")).toBeTruthy();
    expect(screen.getByRole("dialog")).toBeTruthy();
  });
});

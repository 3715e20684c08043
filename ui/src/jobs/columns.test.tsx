import { beforeEach, describe, expect, it } from "vitest";
import { loadColumns, saveColumns } from "./columns";

describe("the jobs list's columns", () => {
  beforeEach(() => localStorage.clear());

  it("are kept in this browser across visits", () => {
    saveColumns(["state", "name", "priority"]);
    expect(loadColumns()).toEqual(["state", "name", "priority"]);
  });

  it("fall back to the default when what is stored is not a list of known columns", () => {
    localStorage.setItem("trainyard.jobs.columns", '["state","gone"]');
    expect(loadColumns()).toContain("name");
    localStorage.setItem("trainyard.jobs.columns", "{broken");
    expect(loadColumns()).toContain("name");
  });
});

import { describe, expect, it } from "vitest";
import { lineHtml, linePrefix, plainText } from "./render";

describe("a log line as HTML", () => {
  it("renders ANSI colours as styled text instead of escape codes", () => {
    const html = lineHtml("\u001b[31mfailed\u001b[0m ok", "");
    expect(html).toContain("failed</span>");
    expect(html).toMatch(/style="color:rgb\(187,0,0\)"/);
    expect(html).not.toContain("\u001b");
  });

  it("escapes markup the trainer printed", () => {
    expect(lineHtml("<script>alert(1)</script>", "")).toBe("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("highlights every match of the search, case-insensitively, outside tags only", () => {
    const html = lineHtml("\u001b[32mLoss\u001b[0m loss span", "span");
    expect(html.match(/<mark>/g)).toHaveLength(1);
    expect(lineHtml("Loss loss", "loss")).toBe("<mark>Loss</mark> <mark>loss</mark>");
  });

  it("searches the text without its escape codes", () => {
    expect(plainText("\u001b[1;33mwarn\u001b[0m")).toBe("warn");
  });

  it("names the rank, and the agent on a job spanning agents, in the downloaded log", () => {
    expect(linePrefix({ rank: 0 })).toBe("");
    expect(linePrefix({ rank: 3 })).toBe("[rank 3] ");
    expect(linePrefix({ rank: 0, host: "gpu-07" })).toBe("[rank 0 on gpu-07] ");
  });
});

import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { answerApi, calls } from "../testApi";
import { SignIn } from "./SignIn";

function signInPage() {
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queries}>
      <SignIn />
    </QueryClientProvider>,
  );
}

describe("the sign-in page", () => {
  afterEach(() => {
    cleanup();
    window.history.replaceState(null, "", "/");
  });

  it("offers single sign-on where the server has a provider, and says why the last one failed", async () => {
    answerApi({ "GET /session/sso": { loginUrl: "/oauth2/authorization/sso" } });
    window.history.replaceState(null, "", "/?ssoError=the+provider+answered+access_denied");
    signInPage();

    const link = await screen.findByRole("link", { name: "Sign in with single sign-on" });
    expect(link.getAttribute("href")).toBe("/oauth2/authorization/sso");
    expect(screen.getByText("Single sign-on failed: the provider answered access_denied")).toBeTruthy();
    expect(screen.getByLabelText("API token")).toBeTruthy();
  });

  it("offers only the API token where it has none", async () => {
    answerApi({ "GET /session/sso": () => new Response(null, { status: 404 }) });
    signInPage();

    expect(await screen.findByLabelText("API token")).toBeTruthy();
    await waitFor(() => expect(calls.map((call) => call.path)).toContain("/session/sso"));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.queryByRole("link", { name: "Sign in with single sign-on" })).toBeNull();
  });
});

import { fakeFetch } from "./testApi";

// jsdom has no matchMedia, which uPlot calls as it loads (to follow the screen's pixel ratio).
window.matchMedia ??= (query: string) =>
  ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener() {},
    removeEventListener() {},
    addListener() {},
    removeListener() {},
    dispatchEvent: () => false,
  }) as MediaQueryList;

// The API client calls relative URLs (the dashboard's own origin), which Node's Request refuses without a base:
// they are read against the page's address, as a browser does. fetch answers from the test's routes (testApi.ts).
const NodeRequest = globalThis.Request;
globalThis.Request = class extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === "string" ? new URL(input, location.href) : input, init);
  }
};
globalThis.fetch = fakeFetch;

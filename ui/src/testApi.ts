// The API as the dashboard's tests see it: fetch answers from a table of routes, and every call is recorded.
// testSetup.ts installs it before the API client is made (openapi-fetch keeps the fetch it finds then).

/** A recorded call: method, path with its query, and the body parsed as JSON (undefined when none). */
export interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** `"GET /backends"` (method and path, without the query) → the JSON answered with 200, or a function of the call. */
export type Routes = Record<string, unknown | ((call: Call) => Response)>;

let routes: Routes = {};
export const calls: Call[] = [];

/** Answers the API's calls from these routes from now on; a call to any other route fails the test loudly. */
export function answerApi(table: Routes) {
  routes = table;
  calls.length = 0;
}

export async function fakeFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const url = new URL(request.url);
  const text = await request.text();
  const call = { method: request.method, path: url.pathname + url.search, body: text ? JSON.parse(text) : undefined };
  calls.push(call);
  const route = routes[`${request.method} ${url.pathname}`];
  if (route === undefined) throw new Error(`no answer for ${request.method} ${url.pathname} in this test`);
  if (typeof route === "function") return route(call);
  return new Response(JSON.stringify(route), { status: 200, headers: { "Content-Type": "application/json" } });
}

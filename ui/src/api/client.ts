import createClient, { type Middleware } from "openapi-fetch";
import type { components, paths } from "./schema";

export type Job = components["schemas"]["Job"];
export type JobState = NonNullable<Job["state"]>;
export type Agent = components["schemas"]["Agent"];
export type Backend = components["schemas"]["Backend"];
export type BackendPartitions = components["schemas"]["BackendPartitions"];
export type LogLine = components["schemas"]["LogLine"];
export type JobEvent = components["schemas"]["JobEvent"];
export type MetricTag = components["schemas"]["MetricTagView"];
export type MetricSeries = components["schemas"]["MetricSeriesView"];
export type ScalarPoint = components["schemas"]["ScalarPoint"];

/** A field the server refused (a problem detail's `errors`), e.g. `taskConfig.trainerConfig.trainerClsPath`. */
export interface FieldError {
  field: string;
  message: string;
}

/** An RFC 9457 problem detail answered by the API, as an Error. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly errors: FieldError[] = [],
  ) {
    super(detail);
  }
}

export function cookie(name: string): string | undefined {
  const pair = document.cookie.split("; ").find((entry) => entry.startsWith(name + "="));
  return pair ? decodeURIComponent(pair.slice(name.length + 1)) : undefined;
}

/**
 * The session cookie authenticates every call (the browser sends it; scripts cannot read it). Calls that change
 * something echo the CSRF cookie in a header, which a page of another site cannot do.
 */
export function withCsrf(headers: Headers, method: string): Headers {
  if (!["GET", "HEAD", "OPTIONS"].includes(method.toUpperCase())) {
    headers.set("X-XSRF-TOKEN", cookie("XSRF-TOKEN") ?? "");
  }
  return headers;
}

const csrf: Middleware = {
  onRequest({ request }) {
    withCsrf(request.headers, request.method);
    return request;
  },
};

export const api = createClient<paths>({ baseUrl: "", credentials: "same-origin" });
api.use(csrf);

export interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The answer's body, or an ApiError carrying the problem detail. */
export async function unwrap<T>(call: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) {
    const problem = (error ?? {}) as { detail?: string; title?: string; errors?: FieldError[] };
    throw new ApiError(response.status, problem.detail ?? problem.title ?? response.statusText, problem.errors ?? []);
  }
  return data as T;
}

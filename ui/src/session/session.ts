import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type Answer, unwrap, withCsrf } from "../api/client";

export interface SessionUser {
  name?: string;
  globalAdmin?: boolean;
}

/**
 * One call to the dashboard's cookie session. The session belongs to the browser, not to the public API's
 * contract (api/openapi.yaml documents bearer-token calls for clients), so these three calls use fetch directly.
 */
async function sessionCall<T>(method: "GET" | "POST" | "DELETE", body?: unknown): Promise<Answer<T>> {
  const headers = withCsrf(new Headers(body === undefined ? {} : { "Content-Type": "application/json" }), method);
  const response = await fetch("/session", {
    method,
    headers,
    credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const parsed = text ? JSON.parse(text) : undefined;
  return response.ok ? { data: parsed as T, response } : { error: parsed, response };
}

/** Who is signed in; null when nobody is. Asking also hands out the CSRF cookie. */
export function useSession() {
  return useQuery({
    queryKey: ["session"],
    queryFn: async (): Promise<SessionUser | null> => {
      const { data, response } = await sessionCall<SessionUser>("GET");
      return response.status === 401 ? null : (data ?? null);
    },
    staleTime: Infinity,
  });
}

/** Where the browser goes to sign in through the organisation's OIDC provider; null when the server has none. */
export function useSingleSignOn() {
  return useQuery({
    queryKey: ["session", "sso"],
    queryFn: async (): Promise<string | null> => {
      const response = await fetch("/session/sso", { credentials: "same-origin" });
      return response.ok ? ((await response.json()) as { loginUrl: string }).loginUrl : null;
    },
    staleTime: Infinity,
  });
}

export function useSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => unwrap(sessionCall<SessionUser>("POST", { token })),
    onSuccess: (user) => client.setQueryData(["session"], user),
  });
}

export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(sessionCall<void>("DELETE")),
    onSuccess: () => {
      client.clear();
      client.setQueryData(["session"], null);
    },
  });
}

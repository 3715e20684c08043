import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../api/client";

export interface SessionUser {
  name?: string;
  globalAdmin?: boolean;
}

/** Who is signed in; null when nobody is. Asking also hands out the CSRF cookie. */
export function useSession() {
  return useQuery({
    queryKey: ["session"],
    queryFn: async (): Promise<SessionUser | null> => {
      const { data, response } = await api.GET("/session");
      return response.status === 401 ? null : (data ?? null);
    },
    staleTime: Infinity,
  });
}

export function useSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => unwrap(api.POST("/session", { body: { token } })),
    onSuccess: (user) => client.setQueryData(["session"], user),
  });
}

export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE("/session")),
    onSuccess: () => {
      client.clear();
      client.setQueryData(["session"], null);
    },
  });
}

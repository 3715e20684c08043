import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../api/client";

/**
 * The backends the server runs jobs on (the pool of agents, Vertex AI…), as it lists them: the dashboard names
 * none itself. They are fixed while the server runs, so they are read once per page load.
 */
export function useBackends() {
  return useQuery({ queryKey: ["backends"], queryFn: () => unwrap(api.GET("/backends")), staleTime: Infinity });
}

import { useInfiniteQuery } from "@tanstack/react-query";
import { api, unwrap, type JobState } from "../api/client";

export interface JobFilter {
  states: JobState[];
  namePrefix: string;
  label: string;
  project: string;
}

const PAGE = 100;

/**
 * The job list, newest first, fetched a page at a time over the API's cursor as the list is scrolled, and
 * refreshed every few seconds so states change live.
 */
export function useJobs(filter: JobFilter, live = true) {
  return useInfiniteQuery({
    queryKey: ["jobs", filter],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET("/jobs", {
          params: {
            query: {
              state: filter.states.length ? filter.states : undefined,
              namePrefix: filter.namePrefix || undefined,
              label: filter.label ? [filter.label] : undefined,
              project: filter.project ? [filter.project] : undefined,
              cursor: pageParam,
              limit: PAGE,
            },
          },
        }),
      ),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    // Refetching re-reads every loaded page: stop once the list is scrolled deep.
    refetchInterval: (query) => (live && (query.state.data?.pages.length ?? 0) <= 5 ? 3000 : false),
  });
}

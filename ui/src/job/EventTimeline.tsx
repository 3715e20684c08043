import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../api/client";
import { Time } from "../common/Time";
import { StateChip } from "../jobs/StateChip";

/** The job's state history, oldest first. */
export function EventTimeline({ jobId }: { jobId: string }) {
  const events = useQuery({
    queryKey: ["events", jobId],
    queryFn: () => unwrap(api.GET("/jobs/{id}/events", { params: { path: { id: jobId } } })),
    refetchInterval: 3000,
  });
  return (
    <ol className="timeline">
      {(events.data ?? []).map((event) => (
        <li key={event.id}>
          <Time at={event.at} /> <span className="muted">attempt {event.attempt}</span>{" "}
          {event.from && <StateChip state={event.from} />} → <StateChip state={event.to} />{" "}
          {event.cause && <span className="error">{event.cause}</span>}{" "}
          {event.message && <span className="muted">{event.message}</span>}
        </li>
      ))}
    </ol>
  );
}

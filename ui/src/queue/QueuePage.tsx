import { Link } from "react-router-dom";
import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../api/client";
import { Time } from "../common/Time";

/** Queued jobs in the order they would be dispatched: higher priority first, then the longest waiting. */
export function QueuePage() {
  const queued = useQuery({
    queryKey: ["queue"],
    queryFn: () => unwrap(api.GET("/jobs", { params: { query: { state: ["QUEUED"], limit: 500 } } })),
    refetchInterval: 3000,
  });
  if (queued.error) return <p className="error pad">{queued.error.message}</p>;
  const jobs = [...(queued.data?.jobs ?? [])].sort(
    (a, b) => (b.priority ?? 0) - (a.priority ?? 0) || (a.queuedAt ?? "").localeCompare(b.queuedAt ?? ""),
  );
  return (
    <section className="queue-page">
      <h1>Queue</h1>
      {jobs.length === 0 && <p className="muted">Nothing is waiting.</p>}
      <ol className="queue">
        {jobs.map((job) => (
          <li key={job.id} data-testid="queued-job">
            <Link to={`/ui/jobs/${job.id}`}>{job.jobName}</Link> <span className="muted">priority {job.priority}</span> · queued <Time at={job.queuedAt} />
          </li>
        ))}
      </ol>
    </section>
  );
}

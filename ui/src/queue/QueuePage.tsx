import { Link } from "react-router-dom";
import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../api/client";
import { Time } from "../common/Time";

/** Queued jobs in the order the dispatcher takes them, each with why it waits (GET /queue). */
export function QueuePage() {
  const queue = useQuery({ queryKey: ["queue"], queryFn: () => unwrap(api.GET("/queue")), refetchInterval: 2000 });
  if (queue.error) return <p className="error pad">{queue.error.message}</p>;
  const jobs = queue.data ?? [];
  return (
    <section className="queue-page">
      <h1>Queue</h1>
      {queue.data && jobs.length === 0 && <p className="muted">Nothing is waiting.</p>}
      <table className="queue">
        {jobs.length > 0 && (
          <thead>
            <tr>
              <th>#</th>
              <th>Job</th>
              <th>Backend</th>
              <th>Priority</th>
              <th>Queued</th>
              <th>Why it waits</th>
            </tr>
          </thead>
        )}
        <tbody>
          {jobs.map((job) => (
            <tr key={job.id} data-testid="queued-job">
              <td>{job.queuePosition}</td>
              <td>
                <Link to={`/ui/jobs/${job.id}`}>{job.jobName}</Link> <span className="muted">{job.project}</span>
              </td>
              <td>{job.backend}</td>
              <td>{job.priority}</td>
              <td>
                <Time at={job.queuedAt} />
              </td>
              <td className="reason">{job.waitingReason}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

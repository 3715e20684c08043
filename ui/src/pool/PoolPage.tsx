import { Link } from "react-router-dom";
import { useQuery } from "@tanstack/react-query";
import { api, unwrap, type Agent } from "../api/client";
import { Time } from "../common/Time";
import { PartitionsSection } from "./PartitionsSection";

/**
 * Every agent of the pool: its GPUs as a grid (which job holds each, and how busy each is by the agent's last
 * sample), CPU slots, lease and heartbeat; then the partitions of the clusters the server submits to.
 */
export function PoolPage() {
  const agents = useQuery({ queryKey: ["agents"], queryFn: () => unwrap(api.GET("/agents")), refetchInterval: 3000 });
  if (agents.error) return <p className="error pad">{agents.error.message}</p>;
  return (
    <section className="pool-page">
      <h1>Pool</h1>
      {agents.data?.length === 0 && <p className="muted">No agents have registered.</p>}
      <div className="agents">
        {(agents.data ?? []).map((agent) => (
          <AgentCard key={agent.id} agent={agent} />
        ))}
      </div>
      <PartitionsSection />
    </section>
  );
}

function AgentCard({ agent }: { agent: Agent }) {
  const jobs = new Map((agent.runningJobs ?? []).filter((j) => j.id).map((j) => [j.id!, j.jobName]));
  return (
    <article className="agent" data-testid={`agent-${agent.id}`}>
      <header>
        <strong>{agent.host}</strong> <span className="muted">{agent.id}</span>{" "}
        <span className={`chip agent-${agent.state?.toLowerCase()}`}>{agent.state}</span>
      </header>
      <div className="gpu-grid">
        {(agent.gpus ?? []).length === 0 && <span className="muted">no GPUs</span>}
        {(agent.gpus ?? []).map((gpu) => (
          <div
            key={gpu.index}
            className={`gpu ${gpu.inUse ? "in-use" : "free"}`}
            title={`${gpu.model} · ${gpu.memoryMiB} MiB`}
          >
            <div>GPU {gpu.index}</div>
            <div className="muted">{gpu.model}</div>
            {gpu.utilizationPercent != null && (
              <div className="gpu-use" data-testid="gpu-use" title={sampleTitle(gpu)}>
                <meter min={0} max={100} value={gpu.utilizationPercent} /> {Math.round(gpu.utilizationPercent)} % busy
                {gpu.memoryUsedMiB != null && ` · ${(gpu.memoryUsedMiB / 1024).toFixed(1)} GiB`}
              </div>
            )}
            <div>
              {gpu.inUse ? (
                gpu.jobId ? (
                  <Link to={`/ui/jobs/${gpu.jobId}`}>{jobs.get(gpu.jobId) ?? "a job"}</Link>
                ) : (
                  "held (another project)"
                )
              ) : (
                "free"
              )}
            </div>
          </div>
        ))}
      </div>
      <dl className="summary">
        <dt>CPU slots</dt>
        <dd>
          {agent.cpuSlotsUsed} of {agent.cpuSlots} in use
        </dd>
        <dt>Running</dt>
        <dd>
          {(agent.runningJobs ?? []).length === 0
            ? "nothing"
            : (agent.runningJobs ?? []).map((job, index) =>
                job.id ? (
                  <Link key={job.id} to={`/ui/jobs/${job.id}`} className="label">
                    {job.jobName} ({job.workers})
                  </Link>
                ) : (
                  <span key={index} className="label">
                    another project's job ({job.workers})
                  </span>
                ),
              )}
        </dd>
        <dt>Last heartbeat</dt>
        <dd>
          <Time at={agent.lastHeartbeatAt} />
        </dd>
        <dt>Lease until</dt>
        <dd>
          <Time at={agent.leaseExpiresAt} />
        </dd>
      </dl>
    </article>
  );
}

/** The rest of a GPU's last sample, for its tooltip. */
function sampleTitle(gpu: NonNullable<Agent["gpus"]>[number]): string {
  const parts = [`${gpu.model} · ${gpu.memoryMiB} MiB`];
  if (gpu.powerWatts != null) parts.push(`${Math.round(gpu.powerWatts)} W`);
  if (gpu.temperatureCelsius != null) parts.push(`${Math.round(gpu.temperatureCelsius)} °C`);
  return parts.join(" · ");
}

import { useParams } from "react-router-dom";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Job } from "../api/client";
import { ConfirmButton } from "../common/Confirm";
import { Time } from "../common/Time";
import { duration } from "../common/time";
import { StateChip, isActive } from "../jobs/StateChip";
import { LogViewer } from "../logs/LogViewer";
import { EventTimeline } from "./EventTimeline";
import { placementText } from "./placement";
import { useMetricTags } from "../metrics/queries";
import { usageSummary } from "../system/measures";
import { lazy, Suspense, useState } from "react";

type Tab = "logs" | "metrics" | "system" | "events" | "configs";

const YamlEditor = lazy(() => import("../common/YamlEditor").then((module) => ({ default: module.YamlEditor })));
// The charts (uPlot) load with the first Metrics tab opened, not with the jobs list.
const MetricsTab = lazy(() => import("../metrics/MetricsTab").then((module) => ({ default: module.MetricsTab })));
const SystemTab = lazy(() => import("../system/SystemTab").then((module) => ({ default: module.SystemTab })));

export function JobPage() {
  const { id } = useParams() as { id: string };
  const [tab, setTab] = useState<Tab>("logs");
  const client = useQueryClient();
  const job = useQuery({
    queryKey: ["job", id],
    queryFn: () => unwrap(api.GET("/jobs/{id}", { params: { path: { id } } })),
    refetchInterval: (query) => (query.state.data && !isActive(query.state.data.state) ? false : 2000),
  });
  if (job.error) return <p className="error pad">{job.error.message}</p>;
  if (!job.data) return <p className="muted pad">Loading…</p>;
  const j = job.data;
  async function act(action: "cancel" | "retry") {
    const path = action === "cancel" ? "/jobs/{id}/cancel" : "/jobs/{id}/retry";
    const updated = await unwrap(api.POST(path, { params: { path: { id } } }));
    client.setQueryData(["job", id], updated);
    await client.invalidateQueries({ queryKey: ["events", id] });
  }
  return (
    <section className="job-page">
      <div className="job-head">
        <h1>{j.jobName}</h1>
        <StateChip state={j.state} />
        <span className="actions">
          {/* What can be done now: cancel while it runs or waits, run it again once it ended. */}
          {isActive(j.state) ? (
            <ConfirmButton
              label="Cancel"
              danger
              disabled={j.state === "CANCELLING"}
              question={`Cancel ${j.jobName}?`}
              onConfirm={() => act("cancel")}
            />
          ) : (
            <ConfirmButton
              label="Retry"
              question={`Run ${j.jobName} again (attempt ${(j.attempt ?? 0) + 1})?`}
              onConfirm={() => act("retry")}
            />
          )}
        </span>
      </div>
      <Summary job={j} />
      <div className="tabs" role="tablist">
        {(["logs", "metrics", "system", "events", "configs"] as Tab[]).map((name) => (
          <button key={name} role="tab" aria-selected={tab === name} onClick={() => setTab(name)}>
            {name[0].toUpperCase() + name.slice(1)}
          </button>
        ))}
      </div>
      {tab === "logs" && <LogViewer jobId={id} workers={j.workers ?? 1} />}
      {tab === "metrics" && (
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <MetricsTab job={j} />
        </Suspense>
      )}
      {tab === "system" && (
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <SystemTab job={j} />
        </Suspense>
      )}
      {tab === "events" && <EventTimeline jobId={id} />}
      {tab === "configs" && <Configs jobId={id} />}
    </section>
  );
}

function Summary({ job }: { job: Job }) {
  const systemMetrics = useMetricTags(job.id!, isActive(job.state), "system-metrics");
  const usage = systemMetrics.data ? usageSummary(systemMetrics.data) : null;
  return (
    <dl className="summary">
      <dt>State</dt>
      <dd>
        {job.state}
        {job.failureCause && (
          <span className="error">
            {" "}
            · {job.failureCause}
            {job.exitCode != null && ` · exit code ${job.exitCode}`}
            {job.failureMessage && ` · ${job.failureMessage}`}
          </span>
        )}
        {!job.failureCause && job.exitCode != null && ` · exit code ${job.exitCode}`}
      </dd>
      {job.queuePosition != null && (
        <>
          <dt>Waiting</dt>
          <dd>
            #{job.queuePosition} in the {job.backend} queue: {job.waitingReason}
          </dd>
        </>
      )}
      <dt>Attempt</dt>
      <dd>{job.attempt}</dd>
      <dt>Backend</dt>
      <dd>
        {job.backend} · project {job.project} · priority {job.priority}
      </dd>
      <dt>Placement</dt>
      <dd>
        {placementText(job)} · {job.workers} worker(s)
      </dd>
      {usage && (
        <>
          <dt>Used</dt>
          <dd data-testid="job-usage">{usage}</dd>
        </>
      )}
      <dt>Submitted</dt>
      <dd>
        <Time at={job.createdAt} /> by {job.submittedBy}
      </dd>
      <dt>Started</dt>
      <dd>
        <Time at={job.startedAt} />
      </dd>
      <dt>Finished</dt>
      <dd>
        <Time at={job.finishedAt} /> {job.startedAt && `(ran ${duration(job.startedAt, job.finishedAt)})`}
      </dd>
      {Object.keys(job.labels ?? {}).length > 0 && (
        <>
          <dt>Labels</dt>
          <dd>
            {Object.entries(job.labels ?? {}).map(([k, v]) => (
              <span key={k} className="label">
                {k}={v}
              </span>
            ))}
          </dd>
        </>
      )}
      {Object.entries(job.outputs ?? {}).map(([name, uri]) => (
        <Row key={name} term={`Output ${name}`} value={uri} />
      ))}
      {Object.entries(job.links ?? {}).map(([name, url]) => (
        <Row
          key={name}
          term={name === "vertexConsole" ? "Vertex AI" : name === "tensorboard" ? "TensorBoard" : name}
          value={
            <a href={url} target="_blank" rel="noreferrer">
              {url}
            </a>
          }
        />
      ))}
    </dl>
  );
}

function Row({ term, value }: { term: string; value: React.ReactNode }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{value}</dd>
    </>
  );
}

function Configs({ jobId }: { jobId: string }) {
  const configs = useQuery({
    queryKey: ["configs", jobId],
    queryFn: () => unwrap(api.GET("/jobs/{id}/configs", { params: { path: { id: jobId } } })),
  });
  if (!configs.data) return <p className="muted">Loading…</p>;
  return (
    <Suspense fallback={<p className="muted">Loading…</p>}>
      <div className="configs">
        <h3>Task config</h3>
        <YamlEditor label="task config" value={configs.data.taskConfig ?? ""} />
        <h3>Resource config</h3>
        <YamlEditor label="resource config" value={configs.data.resourceConfig ?? ""} />
      </div>
    </Suspense>
  );
}

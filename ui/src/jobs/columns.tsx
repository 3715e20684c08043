import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import type { Job } from "../api/client";
import { Time } from "../common/Time";
import { duration } from "../common/time";
import { StateChip } from "./StateChip";

export interface Column {
  id: string;
  label: string;
  width: string;
  render: (job: Job) => ReactNode;
  /** What the column sorts by. */
  sortValue: (job: Job) => string | number;
}

/**
 * Every column the Jobs page can show. The default ones fit 1,024 px: the fixed widths hold their content whole (a
 * relative time, a state chip), the flexible ones give way first and cut their text with an ellipsis.
 */
export const COLUMNS: Column[] = [
  {
    id: "state",
    label: "State",
    width: "8rem",
    render: (j) => <StateChip state={j.state} />,
    sortValue: (j) => j.state ?? "",
  },
  {
    id: "name",
    label: "Name",
    width: "minmax(7rem, 2fr)",
    render: (j) => <Link to={`/ui/jobs/${j.id}`}>{j.jobName}</Link>,
    sortValue: (j) => j.jobName ?? "",
  },
  { id: "project", label: "Project", width: "6rem", render: (j) => j.project, sortValue: (j) => j.project ?? "" },
  { id: "backend", label: "Backend", width: "6rem", render: (j) => j.backend, sortValue: (j) => j.backend ?? "" },
  { id: "priority", label: "Priority", width: "5rem", render: (j) => j.priority, sortValue: (j) => j.priority ?? 0 },
  { id: "attempt", label: "Attempt", width: "5rem", render: (j) => j.attempt, sortValue: (j) => j.attempt ?? 0 },
  {
    id: "labels",
    label: "Labels",
    width: "minmax(5rem, 1fr)",
    render: (j) =>
      Object.entries(j.labels ?? {}).map(([k, v]) => (
        <span key={k} className="label">
          {k}={v}
        </span>
      )),
    sortValue: (j) => Object.entries(j.labels ?? {}).join(","),
  },
  {
    id: "created",
    label: "Submitted",
    width: "9rem",
    render: (j) => <Time at={j.createdAt} compact />,
    sortValue: (j) => j.createdAt ?? "",
  },
  {
    id: "started",
    label: "Started",
    width: "9rem",
    render: (j) => <Time at={j.startedAt} compact />,
    sortValue: (j) => j.startedAt ?? "",
  },
  {
    id: "duration",
    label: "Duration",
    width: "6rem",
    render: (j) => duration(j.startedAt, j.finishedAt),
    sortValue: (j) =>
      j.startedAt ? (j.finishedAt ? Date.parse(j.finishedAt) : Date.now()) - Date.parse(j.startedAt) : -1,
  },
  {
    id: "waiting",
    label: "Waiting",
    width: "minmax(7rem, 2fr)",
    render: (j) =>
      j.queuePosition ? (
        <span title={j.waitingReason ?? undefined}>
          #{j.queuePosition}: {j.waitingReason}
        </span>
      ) : (
        ""
      ),
    sortValue: (j) => j.queuePosition ?? Number.MAX_SAFE_INTEGER,
  },
  { id: "submitter", label: "By", width: "7rem", render: (j) => j.submittedBy, sortValue: (j) => j.submittedBy ?? "" },
  {
    id: "exit",
    label: "Cause",
    width: "10rem",
    render: (j) => (j.failureCause ? `${j.failureCause}${j.exitCode != null ? ` (exit ${j.exitCode})` : ""}` : ""),
    sortValue: (j) => j.failureCause ?? "",
  },
];

const DEFAULT = ["state", "name", "project", "backend", "labels", "created", "duration", "waiting"];
const KEY = "trainyard.jobs.columns";

/** The columns chosen, kept in this browser (localStorage) across visits. */
export function loadColumns(): string[] {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? "null");
    if (Array.isArray(saved) && saved.every((id) => COLUMNS.some((c) => c.id === id))) return saved;
  } catch {
    // A damaged entry: fall back to the default.
  }
  return DEFAULT;
}

export function saveColumns(ids: string[]) {
  localStorage.setItem(KEY, JSON.stringify(ids));
}

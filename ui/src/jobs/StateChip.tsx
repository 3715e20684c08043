import type { JobState } from "../api/client";

export const STATES: JobState[] = ["QUEUED", "STARTING", "RUNNING", "CANCELLING", "SUCCEEDED", "FAILED", "CANCELLED"];
export const ACTIVE_STATES: JobState[] = ["QUEUED", "STARTING", "RUNNING", "CANCELLING"];

export function isActive(state?: JobState): boolean {
  return state !== undefined && ACTIVE_STATES.includes(state);
}

export function StateChip({ state }: { state?: JobState }) {
  return <span className={`chip state-${(state ?? "unknown").toLowerCase()}`}>{state ?? "?"}</span>;
}

import type { Job } from "../api/client";

type Value = string | number | boolean | null | undefined | Value[] | { [key: string]: Value };

function shown(value: Value): boolean {
  if (value == null || value === "" || value === 0 || value === false) return false;
  return !Array.isArray(value) || value.length > 0;
}

function fieldsText(fields: Record<string, Value>, separator: string): string {
  return Object.entries(fields)
    .filter(([name, value]) => name !== "kind" && shown(value))
    .map(([name, value]) => `${name} ${text(value)}`)
    .join(separator);
}

function text(value: Value): string {
  if (Array.isArray(value)) return value.map(text).join(", ");
  return typeof value === "object" && value !== null ? `(${fieldsText(value, "; ")})` : String(value);
}

/**
 * Where the job runs, from its placement's fields whatever its backend, in the order the server sends them:
 * `node a1 · device cuda · gpus 0, 1` on an agent (with `moreHosts (node a2; gpus 0, 1; firstRank 2; workers 2)`
 * when the job spans agents), `project p · region us-central1` on Vertex AI. The `kind` tag and fields with
 * nothing in them (null, empty, zero, false) are left out.
 */
export function placementText(job: Pick<Job, "placement" | "node">): string {
  const placement = job.placement as Record<string, Value> | null | undefined;
  if (!placement) return job.node ? `node ${job.node}` : "not placed";
  return fieldsText(placement, " · ") || "placed";
}

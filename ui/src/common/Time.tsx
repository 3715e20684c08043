import { absoluteTime, relativeTime } from "./time";

/** A time shown both ways: absolute (to the second, local) and relative. */
export function Time({ at }: { at?: string | null }) {
  if (!at) return <span className="muted">—</span>;
  return (
    <time dateTime={at} title={at}>
      {absoluteTime(at)} <span className="muted">({relativeTime(at)})</span>
    </time>
  );
}

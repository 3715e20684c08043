import { absoluteTime, relativeTime } from "./time";

/**
 * A time shown both ways: absolute (to the second, local) and relative; `compact` (a table's cell) shows the relative
 * time alone, the absolute one on hover.
 */
export function Time({ at, compact = false }: { at?: string | null; compact?: boolean }) {
  if (!at) return <span className="muted">—</span>;
  if (compact) {
    return (
      <time dateTime={at} title={absoluteTime(at)}>
        {relativeTime(at)}
      </time>
    );
  }
  return (
    <time dateTime={at} title={at}>
      {absoluteTime(at)} <span className="muted">({relativeTime(at)})</span>
    </time>
  );
}

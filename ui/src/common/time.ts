const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
  ["second", 1000],
];

/** "3 minutes ago" for a time before `now`. */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const delta = new Date(iso).getTime() - now;
  for (const [unit, millis] of units) {
    if (Math.abs(delta) >= millis || unit === "second") {
      return relative.format(Math.round(delta / millis), unit);
    }
  }
  return "";
}

/** The local date and time, to the second: 2026-11-25 13:04:05. */
export function absoluteTime(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export function duration(fromIso?: string | null, toIso?: string | null): string {
  if (!fromIso) return "";
  const seconds = Math.max(
    0,
    Math.round(((toIso ? new Date(toIso).getTime() : Date.now()) - new Date(fromIso).getTime()) / 1000),
  );
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h ? `${h}h ${m}m` : m ? `${m}m ${s}s` : `${s}s`;
}

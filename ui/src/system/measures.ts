import type { MetricTag } from "../api/client";

/**
 * How a system metric series reads for people. Series are named `<device>/<measure>` by the server
 * (`gpu0/utilization_percent`, `rank1/rss_bytes`); memory is shown in GiB, I/O in MiB.
 */
export interface Measure {
  device: string;
  label: string;
  unit: string;
  /** What a stored value is divided by for display. */
  scale: number;
  /** A running total (bytes read so far): its last value says how much, an average of it says nothing. */
  counter?: boolean;
}

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

const MEASURES: Record<string, Omit<Measure, "device">> = {
  utilization_percent: { label: "utilization", unit: "%", scale: 1 },
  memory_used_bytes: { label: "memory used", unit: "GiB", scale: GIB },
  power_watts: { label: "power", unit: "W", scale: 1 },
  temperature_celsius: { label: "temperature", unit: "°C", scale: 1 },
  cpu_percent: { label: "CPU (100 % is one core)", unit: "%", scale: 1 },
  rss_bytes: { label: "resident memory", unit: "GiB", scale: GIB },
  read_bytes: { label: "read from storage", unit: "MiB", scale: MIB, counter: true },
  write_bytes: { label: "written to storage", unit: "MiB", scale: MIB, counter: true },
};

/** `gpu0/utilization_percent` → GPU 0, utilization, %. A series of an unknown measure is shown as stored. */
export function measureOf(tag: string): Measure {
  const [device, measure] = tag.split("/", 2);
  return { device: deviceName(device), ...(MEASURES[measure] ?? { label: measure ?? tag, unit: "", scale: 1 }) };
}

function deviceName(device: string): string {
  const gpu = /^gpu(\d+)$/.exec(device);
  if (gpu) return `GPU ${gpu[1]}`;
  const rank = /^rank(\d+)$/.exec(device);
  return rank ? `Worker ${rank[1]}` : device;
}

/** The series in the order to show them: GPUs, then workers, each by number, then by measure in the table's order. */
export function inDeviceOrder(tags: MetricTag[]): MetricTag[] {
  const measureOrder = Object.keys(MEASURES);
  const key = (tag: MetricTag) => {
    const [device, measure] = tag.tag.split("/", 2);
    const number = Number(/\d+$/.exec(device)?.[0] ?? 0);
    return [device.startsWith("gpu") ? 0 : 1, number, measureOrder.indexOf(measure)];
  };
  return [...tags].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2] || a.tag.localeCompare(b.tag);
  });
}

/**
 * One line on what the job used: "GPU 37 % avg, 11.2 GiB peak" (every GPU's samples averaged, the most memory one
 * held), then the workers' "CPU 98 % avg, 1.2 GiB peak RSS"; null when nothing was sampled.
 */
export function usageSummary(tags: MetricTag[]): string | null {
  const parts: string[] = [];
  const gpu = average(tags, /^gpu\d+\/utilization_percent$/);
  if (gpu != null) parts.push(`GPU ${Math.round(gpu)} % avg, ${gib(peak(tags, /^gpu\d+\/memory_used_bytes$/))} peak`);
  const cpu = average(tags, /^rank\d+\/cpu_percent$/);
  if (cpu != null) parts.push(`CPU ${Math.round(cpu)} % avg, ${gib(peak(tags, /^rank\d+\/rss_bytes$/))} peak RSS`);
  return parts.length ? parts.join(" · ") : null;
}

/** The mean of the matching series' samples, each series weighted by its number of samples. */
function average(tags: MetricTag[], pattern: RegExp): number | null {
  const matching = tags.filter((tag) => pattern.test(tag.tag) && tag.mean != null);
  const points = matching.reduce((sum, tag) => sum + tag.points, 0);
  return points === 0 ? null : matching.reduce((sum, tag) => sum + tag.mean! * tag.points, 0) / points;
}

function peak(tags: MetricTag[], pattern: RegExp): number | null {
  const maxima = tags.filter((tag) => pattern.test(tag.tag) && tag.max != null).map((tag) => tag.max!);
  return maxima.length ? Math.max(...maxima) : null;
}

function gib(bytes: number | null): string {
  return bytes == null ? "—" : `${(bytes / GIB).toFixed(1)} GiB`;
}
